import type { AppContext } from '../context';
import { perApp } from '../lib/per-app';
import type { MarketSession, Quote } from '../brokers/types';

/** What the hub needs of a WebSocket (the `ws` socket fits as it is). */
export interface PriceSink {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string, cb?: (err?: Error) => void): void;
  /** Ends the socket (used when the account's broker link is replaced or removed). */
  close?(code?: number, reason?: string): void;
}

/** Starts the upstream quote subscription of a topic; returns the function that stops it. */
export type Upstream = (onQuote: (q: Quote, market?: MarketSession | null) => void) => () => void;

export interface PriceHubOptions {
  /**
   * Bytes queued on a socket above which it counts as slow: it then gets no new tick until it drains,
   * and only the newest one when it does. About a hundred messages: a healthy client is never near it.
   */
  maxBufferedBytes?: number;
}

interface Watcher {
  sink: PriceSink;
  /** The newest tick not yet sent to this slow client; older ones were dropped. */
  pending?: string;
  dropped: number;
}

interface Topic {
  accountId: string;
  watchers: Set<Watcher>;
  stop: () => void;
  last?: string;
}

export interface PriceHubStats {
  topics: number;
  watchers: number;
  dropped: number;
}

export interface PriceHub {
  /** Adds a socket to the account+symbol topic, starting the upstream for the first watcher; returns the unwatch. */
  watch(accountId: string, symbol: string, upstream: Upstream, sink: PriceSink): () => void;
  stats(): PriceHubStats;
  /**
   * Stops every topic of an account and closes its sockets with `code`: after its broker link was
   * replaced (credentials changed, new cTrader grant) or removed (account deleted), the old upstream is
   * dead, and a watcher must reconnect to get the new one (or be refused) instead of staring at a
   * frozen price.
   */
  dropAccount(accountId: string, code: number, reason: string): void;
  close(): void;
}

const OPEN = 1;

const isoOrNull = (ms: number | null): string => (ms === null ? 'null' : `"${new Date(ms).toISOString()}"`);

/**
 * The wire form of a tick: `{bid, ask, time}` with an ISO time, plus the market's session when the
 * broker knows it; serialised once for every watcher.
 */
export const priceMessage = (q: Quote, market?: MarketSession | null): string => {
  const head = `{"bid":${q.bid},"ask":${q.ask},"time":"${new Date(q.time).toISOString()}"`;
  if (!market) return `${head}}`;
  return `${head},"market":{"open":${market.open},"next_open":${isoOrNull(market.nextOpen)},"next_close":${isoOrNull(market.nextClose)}}}`;
};

/**
 * Fans quotes out to WebSocket clients: one upstream subscription per account and symbol however many
 * sockets watch it, dropped with the last watcher. A slow client never delays the others: sending never
 * waits, and a socket whose buffer is full skips stale ticks and gets only the newest once it drains.
 */
export function createPriceHub(opts: PriceHubOptions = {}): PriceHub {
  const maxBuffered = opts.maxBufferedBytes ?? 16 * 1024;
  const topics = new Map<string, Topic>();
  let droppedTotal = 0;

  function sendTo(w: Watcher, msg: string): void {
    if (w.sink.readyState !== OPEN) return;
    if (w.sink.bufferedAmount > maxBuffered) {
      if (w.pending !== undefined) {
        w.dropped += 1;
        droppedTotal += 1;
      }
      w.pending = msg;
      return;
    }
    w.sink.send(msg, () => drained(w));
  }

  /** After every write completes: a slow client that caught up gets the newest tick it missed. */
  function drained(w: Watcher): void {
    if (w.pending === undefined || w.sink.readyState !== OPEN || w.sink.bufferedAmount > maxBuffered) return;
    const msg = w.pending;
    w.pending = undefined;
    w.sink.send(msg, () => drained(w));
  }

  return {
    watch(accountId, symbol, upstream, sink) {
      const key = `${accountId}\u0000${symbol}`;
      let topic = topics.get(key);
      if (!topic) {
        const t: Topic = { accountId, watchers: new Set(), stop: () => undefined };
        topics.set(key, t);
        try {
          t.stop = upstream((q, market) => {
            const msg = priceMessage(q, market);
            t.last = msg;
            for (const w of t.watchers) sendTo(w, msg);
          });
        } catch (e) {
          topics.delete(key);
          throw e;
        }
        topic = t;
      }
      const watcher: Watcher = { sink, dropped: 0 };
      topic.watchers.add(watcher);
      // A new watcher sees the current price at once instead of waiting for the next tick.
      if (topic.last) sendTo(watcher, topic.last);
      const owner = topic;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        owner.watchers.delete(watcher);
        if (owner.watchers.size === 0 && topics.get(key) === owner) {
          topics.delete(key);
          owner.stop();
        }
      };
    },
    stats() {
      let watchers = 0;
      for (const t of topics.values()) watchers += t.watchers.size;
      return { topics: topics.size, watchers, dropped: droppedTotal };
    },
    dropAccount(accountId, code, reason) {
      for (const [key, t] of [...topics]) {
        if (t.accountId !== accountId) continue;
        topics.delete(key);
        t.stop();
        for (const w of t.watchers) {
          if (w.sink.readyState <= OPEN) w.sink.close?.(code, reason);
        }
        t.watchers.clear();
      }
    },
    close() {
      for (const t of topics.values()) t.stop();
      topics.clear();
    },
  };
}

/** The app's one price hub, stopped on shutdown. */
export const priceHub: (ctx: AppContext) => PriceHub = perApp((ctx) => {
  const hub = createPriceHub();
  ctx.onShutdown(() => hub.close());
  return hub;
});
