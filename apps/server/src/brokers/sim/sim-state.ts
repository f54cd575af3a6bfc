import type { FastifyBaseLogger } from 'fastify';
import { currencyDecimals, fromMinor as fromMinorUnits, toMinor as toMinorUnits } from '@tradedesk/domain';
import type { Db } from '../../db';
import type { SimOrdersTable, SimPositionsTable } from '../../db/schema';
import { BrokerError, type BrokerEvent, type ConnectionState, type Quote } from '../types';
import type { SimMarket, SimSymbolSpec } from './market-types';
import { simStore } from './sim-store';

export interface SimAdapterOptions {
  db: Db;
  market: SimMarket;
  now: () => number;
  account: { id: string; user_id: string; currency: string; leverage: number };
  log?: FastifyBaseLogger;
}

/** The one state object of a SIM account that the adapter's modules share. */
export interface SimState {
  market: SimMarket;
  now: () => number;
  account: SimAdapterOptions['account'];
  log?: FastifyBaseLogger;
  store: ReturnType<typeof simStore>;
  ccy: string;
  toMinor: (amount: number) => number;
  fromMinor: (minor: number) => number;
  connection: ConnectionState;
  loading: Promise<void> | undefined;
  balanceMinor: number;
  positions: Map<string, SimPositionsTable>;
  orders: Map<string, SimOrdersTable>;
  /** Positions and orders whose trigger is queued, so that later ticks do not queue it again. */
  triggered: Set<string>;
  tickSubs: Map<string, () => void>;
  listeners: Set<(e: BrokerEvent) => void>;
  /** The trigger checker, run on every tick of a watched symbol (set when the adapter is composed). */
  onTick: (q: Quote) => void;
  queue: Promise<unknown>;
}

export function createSimState(opts: SimAdapterOptions): SimState {
  const { db, market, now, account, log } = opts;
  const decimals = currencyDecimals(account.currency);
  return {
    market,
    now,
    account,
    log,
    store: simStore(db, account.id, account.user_id),
    ccy: account.currency,
    toMinor: (amount) => toMinorUnits(amount, decimals),
    fromMinor: (minor) => fromMinorUnits(minor, decimals),
    connection: 'disconnected',
    loading: undefined,
    balanceMinor: 0,
    positions: new Map(),
    orders: new Map(),
    triggered: new Set(),
    tickSubs: new Map(),
    listeners: new Set(),
    onTick: () => undefined,
    queue: Promise.resolve(),
  };
}

/** Runs changes one at a time, so that a close and a trigger on the same tick never both apply. */
export function serial<T>(st: SimState, fn: () => Promise<T>): Promise<T> {
  const run = st.queue.then(fn, fn);
  st.queue = run.catch(() => undefined);
  return run;
}

export function emit(st: SimState, e: BrokerEvent): void {
  for (const l of st.listeners) {
    try {
      l(e);
    } catch (err) {
      st.log?.error({ err }, 'sim event listener failed');
    }
  }
}

export function specOf(st: SimState, symbol: string): SimSymbolSpec {
  const s = st.market.spec(symbol);
  if (!s) throw new BrokerError(`Unknown symbol: ${symbol}.`, 'not_found');
  return s;
}

/** An amount in currency `from` converted into the account currency at instant t. */
export const toAccount = (st: SimState, amount: number, from: string, t: number) =>
  from === st.ccy || amount === 0 ? amount : st.market.convert(amount, from, st.ccy, t);
