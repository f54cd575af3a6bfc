import {
  TIMEFRAME_MS,
  seriesFromBars,
  type CandleBar,
  type CandleSeries,
  type CandleTimeframe,
} from '@tradedesk/domain';
import type { BrokerRegistry, SimEnvironment } from '../brokers/registry';
import type { Timeframe } from '../brokers/types';
import type { TradingAccountsTable } from '../db/schema';

/**
 * Where candles come from. Every source is read through the same store (candle-store.ts), which keeps
 * what it fetched in month chunks under `key` and asks the source only for what it lacks.
 */
export interface CandleSource {
  /** The store's name of the source (see migration 0070). */
  readonly key: string;
  /** Owner of the source's chunks; null for the shared simulator. */
  readonly userId: string | null;
  readonly accountId: string | null;
  /** Timeframes kept in the store; any other is resampled from one of them. */
  readonly stored: readonly StoredTimeframe[];
  /** The source's clock: no bar opens after it yet. */
  now(): number;
  /** Bars opening in [fromMs, toMs), oldest first; absent for sources filled by imports only. */
  fetch?(symbol: string, timeframe: StoredTimeframe, fromMs: number, toMs: number): Promise<CandleSeries>;
}

/** Timeframes a broker serves and the store keeps; weeks and months are built from hours and days. */
export const BROKER_TIMEFRAMES = ['M1', 'M5', 'M15', 'M30', 'H1', 'H4', 'D1'] as const satisfies readonly (
  CandleTimeframe | Timeframe
)[];
export type StoredTimeframe = (typeof BROKER_TIMEFRAMES)[number];

/** Bars per request to a broker: the MT5 bridge and cTrader answer a few thousand at a time. */
const BROKER_BARS_PER_REQUEST = 5000;
/** Bars per simulator call: about 30 ms of CPU on M1, so other requests are not held up for long. */
const SIM_BARS_PER_CALL = 1440;

/** Asks in windows of `bars` bars, keeps [from, to), sorted, one bar per open time. */
async function windowed(
  tf: StoredTimeframe,
  fromMs: number,
  toMs: number,
  bars: number,
  get: (from: number, to: number) => Promise<CandleBar[]>,
): Promise<CandleSeries> {
  const span = bars * TIMEFRAME_MS[tf];
  const byTime = new Map<number, CandleBar>();
  for (let from = fromMs; from < toMs; from += span) {
    const to = Math.min(toMs, from + span);
    for (const b of await get(from, to)) if (b.time >= from && b.time < to) byTime.set(b.time, b);
  }
  return seriesFromBars([...byTime.values()].sort((a, b) => a.time - b.time));
}

/** The simulator's deterministic history: any range, the same on every node. */
export function simCandleSource(sim: SimEnvironment): CandleSource {
  return {
    key: `sim:${sim.market.seed}`,
    userId: null,
    accountId: null,
    stored: BROKER_TIMEFRAMES,
    now: sim.now,
    fetch: (symbol, tf, fromMs, toMs) =>
      windowed(tf, fromMs, toMs, SIM_BARS_PER_CALL, async (from, to) => {
        // Computing bars is CPU work: let other requests in between windows.
        await new Promise((resolve) => setImmediate(resolve));
        return sim.market.candles(symbol, tf, from, to, sim.now());
      }),
  };
}

/** A broker account's own prices (cTrader trendbars, the MT5 bridge's bars), its owner's alone. */
export function brokerCandleSource(brokers: BrokerRegistry, account: TradingAccountsTable): CandleSource {
  return {
    key: `account:${account.id}`,
    userId: account.user_id,
    accountId: account.id,
    stored: BROKER_TIMEFRAMES,
    now: Date.now,
    fetch: (symbol, tf, fromMs, toMs) =>
      windowed(tf, fromMs, toMs, BROKER_BARS_PER_REQUEST, (from, to) =>
        brokers.use(account, (a) => a.candles(symbol, tf, from, to)),
      ),
  };
}

/** A user's imported M1 files: nothing to fetch, every other timeframe resampled from M1. */
export function csvCandleSource(userId: string): CandleSource {
  return { key: `csv:${userId}`, userId, accountId: null, stored: ['M1'], now: Date.now };
}
