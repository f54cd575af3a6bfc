import type { AppContext } from '../context';
import { perApp } from '../lib/per-app';
import type { TradingAccountsTable } from '../db/schema';
import { createCTraderBroker } from './ctrader/factory';
import { createSimAdapter } from './sim/sim-adapter';
import { createMt5Adapter } from './mt5/mt5-factory';
import { createSimMarket } from './sim/market';
import type { SimMarket } from './sim/market-types';
import {
  BrokerError,
  type BrokerAdapter,
  type ConnectionState,
  type Platform,
  type Reconciliation,
} from './types';

/** The simulated market and its clock, shared by every SIM account of the app. */
export interface SimEnvironment {
  market: SimMarket;
  now: () => number;
}

export interface BrokerFactoryInput {
  ctx: AppContext;
  /** The account row; secrets in it are sealed (open them with ctx.secrets). */
  account: TradingAccountsTable;
  sim: SimEnvironment;
}

export type BrokerFactory = (input: BrokerFactoryInput) => BrokerAdapter;

/** One adapter factory per platform: adding a platform is one line here. */
export const brokerFactories: Partial<Record<Platform, BrokerFactory>> = {
  SIM: ({ ctx, account, sim }) =>
    createSimAdapter({ db: ctx.db, market: sim.market, now: sim.now, account, log: ctx.log }),
  MT5: createMt5Adapter,
  cTrader: ({ ctx, account }) => createCTraderBroker(ctx, account),
};

/** Reconnect delays of remote platforms: 1 s doubling up to a minute. */
export const RECONNECT_BACKOFF_MS = [1000, 2000, 4000, 8000, 16_000, 32_000, 60_000];

interface Entry {
  account: TradingAccountsTable;
  adapter: BrokerAdapter;
  connecting?: Promise<void>;
  attempt: number;
  /** No on-demand connect before this instant after a failure, so a down broker is not hammered. */
  retryAfter: number;
  /** Connected at least once: any later connect is a reconnect and reconciles. */
  wasConnected: boolean;
  /** The broker refused our credentials: retrying them in the background would only lock the account. */
  authFailed: boolean;
  /** The adapter's last reported connection state. */
  lastState?: ConnectionState;
  lastError?: string;
  timer?: NodeJS.Timeout;
  stopEvents: () => void;
}

export interface BrokerRegistry {
  readonly sim: SimEnvironment;
  /** The connected adapter of an account the caller already owns; throws BrokerError only. */
  connected(account: TradingAccountsTable): Promise<BrokerAdapter>;
  /** Runs `fn` against the connected adapter; its broker errors reach the HTTP error handler as they are. */
  use<T>(account: TradingAccountsTable, fn: (adapter: BrokerAdapter) => Promise<T>): Promise<T>;
  /** Connection state without connecting. */
  state(accountId: string): ConnectionState;
  /** Disconnects and forgets an account's adapter (credentials changed, account deleted). */
  evict(accountId: string): Promise<void>;
  /** Called with the broker's open positions and orders after every reconnect. */
  onReconciled(fn: (accountId: string, rec: Reconciliation) => void): () => void;
  /** Called after every successful connect of an account (first connect and reconnects). */
  onConnected(fn: (account: TradingAccountsTable) => void): () => void;
  /** Called after `evict` dropped an account's adapter: whatever used that adapter must let go of it. */
  onEvicted(fn: (accountId: string) => void): () => void;
  closeAll(): Promise<void>;
}

/** The app's one registry: created on first use, closed on shutdown. */
export const brokerRegistry: (ctx: AppContext) => BrokerRegistry = perApp((ctx) => {
  const registry = createBrokerRegistry(ctx);
  ctx.onShutdown(() => registry.closeAll());
  return registry;
});

export function createBrokerRegistry(
  ctx: AppContext,
  factories = brokerFactories,
  opts: { backoffMs?: readonly number[] } = {},
): BrokerRegistry {
  const backoff = opts.backoffMs ?? RECONNECT_BACKOFF_MS;
  const now = ctx.config.simNow ?? Date.now;
  const sim: SimEnvironment = {
    market: ctx.config.simMarket ?? createSimMarket({ seed: ctx.config.simSeed, now }),
    now,
  };
  const entries = new Map<string, Entry>();
  const reconciledListeners = new Set<(accountId: string, rec: Reconciliation) => void>();
  const connectedListeners = new Set<(account: TradingAccountsTable) => void>();
  const evictedListeners = new Set<(accountId: string) => void>();
  let closed = false;

  function entryFor(account: TradingAccountsTable): Entry {
    const existing = entries.get(account.id);
    if (existing) return existing;
    const factory = factories[account.platform];
    if (!factory) throw new BrokerError(`${account.platform} accounts are not supported by this server yet.`);
    const adapter = factory({ ctx, account, sim });
    const entry: Entry = {
      account,
      adapter,
      attempt: 0,
      retryAfter: 0,
      wasConnected: false,
      authFailed: false,
      stopEvents: () => undefined,
    };
    entry.stopEvents = adapter.onEvent((e) => {
      if (e.type !== 'connection' || closed || entries.get(account.id) !== entry) return;
      const previous = entry.lastState;
      entry.lastState = e.state;
      // An adapter that reconnected by itself: reconcile and tell listeners, as after our own reconnects.
      if (e.state === 'connected' && previous !== 'connected' && entry.wasConnected && !entry.connecting) {
        void afterConnect(entry, true).catch((err: unknown) =>
          ctx.log.warn({ err, account: account.id }, 'reconcile after reconnect failed'),
        );
        return;
      }
      // A remote broker that drops us is reconnected in the background; the SIM never drops.
      if (
        (e.state === 'disconnected' || e.state === 'error') &&
        account.platform !== 'SIM' &&
        !entry.connecting
      ) {
        entry.lastError = e.detail ?? entry.lastError;
        scheduleReconnect(entry);
      }
    });
    entries.set(account.id, entry);
    return entry;
  }

  /** A listener that throws must not turn a good connection into a failed one. */
  function notify(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      ctx.log.error({ err }, 'broker registry listener failed');
    }
  }

  function delayOf(attempt: number): number {
    return backoff[Math.min(attempt, backoff.length - 1)] ?? 60_000;
  }

  function scheduleReconnect(entry: Entry): void {
    if (entry.timer || closed || entry.authFailed) return;
    const delay = delayOf(entry.attempt);
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      if (closed || entries.get(entry.account.id) !== entry) return;
      connect(entry, true).catch(() => scheduleReconnect(entry));
    }, delay);
    entry.timer.unref();
  }

  async function afterConnect(entry: Entry, isReconnect: boolean): Promise<void> {
    if (isReconnect) {
      // Whatever happened while we were away (fills, stops, closes) is taken from the broker.
      const rec = await entry.adapter.reconcile();
      for (const fn of reconciledListeners) notify(() => fn(entry.account.id, rec));
    }
    for (const fn of connectedListeners) notify(() => fn(entry.account));
  }

  function connect(entry: Entry, reconnecting: boolean): Promise<void> {
    entry.connecting ??= (async () => {
      try {
        await entry.adapter.connect();
        entry.attempt = 0;
        entry.retryAfter = 0;
        entry.lastError = undefined;
        entry.authFailed = false;
        entry.lastState = 'connected';
        const isReconnect = reconnecting || entry.wasConnected;
        entry.wasConnected = true;
        await afterConnect(entry, isReconnect);
      } catch (e) {
        entry.authFailed = e instanceof BrokerError && e.kind === 'auth';
        entry.lastError = e instanceof Error ? e.message : String(e);
        entry.retryAfter = Date.now() + delayOf(entry.attempt);
        entry.attempt += 1;
        ctx.log.warn(
          { account: entry.account.id, platform: entry.account.platform, err: entry.lastError },
          'broker connect failed',
        );
        throw e;
      } finally {
        entry.connecting = undefined;
      }
    })();
    return entry.connecting;
  }

  async function connected(account: TradingAccountsTable): Promise<BrokerAdapter> {
    if (closed) throw new BrokerError('The server is shutting down.');
    const entry = entryFor(account);
    if (entry.adapter.connectionState() === 'connected') return entry.adapter;
    if (!entry.connecting && Date.now() < entry.retryAfter) {
      throw new BrokerError(
        `${account.platform} broker is unavailable: ${entry.lastError ?? 'connection failed'}`,
      );
    }
    try {
      await connect(entry, false);
    } catch (e) {
      if (account.platform !== 'SIM') scheduleReconnect(entry);
      if (e instanceof BrokerError) throw e;
      throw new BrokerError(
        `${account.platform} broker is unavailable: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    return entry.adapter;
  }

  async function drop(entry: Entry): Promise<void> {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.stopEvents();
    entries.delete(entry.account.id);
    try {
      await entry.adapter.disconnect();
    } catch (err) {
      ctx.log.warn({ err, account: entry.account.id }, 'broker disconnect failed');
    }
  }

  return {
    sim,
    connected,
    async use(account, fn) {
      return fn(await connected(account));
    },
    state(accountId) {
      return entries.get(accountId)?.adapter.connectionState() ?? 'disconnected';
    },
    async evict(accountId) {
      const entry = entries.get(accountId);
      if (!entry) return;
      await drop(entry);
      for (const fn of evictedListeners) notify(() => fn(accountId));
    },
    onReconciled(fn) {
      reconciledListeners.add(fn);
      return () => void reconciledListeners.delete(fn);
    },
    onConnected(fn) {
      connectedListeners.add(fn);
      return () => void connectedListeners.delete(fn);
    },
    onEvicted(fn) {
      evictedListeners.add(fn);
      return () => void evictedListeners.delete(fn);
    },
    async closeAll() {
      closed = true;
      await Promise.all([...entries.values()].map(drop));
    },
  };
}
