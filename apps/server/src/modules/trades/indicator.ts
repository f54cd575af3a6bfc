import { averageTrueRange, DEFAULT_ATR_PERIOD } from '@tradedesk/domain';
import {
  BrokerError,
  TIMEFRAME_SECONDS,
  type BrokerAdapter,
  type SymbolInfo,
  type Timeframe,
} from '../../brokers/types';

/** The trade modal's timeframes (1M = one minute there) and the broker layer's own names. */
const TIMEFRAMES: Record<string, Exclude<Timeframe, 'MN1'>> = {
  '1M': 'M1',
  '5M': 'M5',
  '15M': 'M15',
  '30M': 'M30',
  '1H': 'H1',
  '4H': 'H4',
  '1D': 'D1',
  '1W': 'W1',
  M1: 'M1',
  M5: 'M5',
  M15: 'M15',
  M30: 'M30',
  H1: 'H1',
  H4: 'H4',
  D1: 'D1',
  W1: 'W1',
};

export function parseTimeframe(raw: string | null | undefined): Exclude<Timeframe, 'MN1'> | null {
  if (!raw) return null;
  return TIMEFRAMES[raw.trim().toUpperCase()] ?? null;
}

/**
 * A broker symbol cleaned the way the spec asks: upper-cased, and a broker suffix removed
 * (`EURUSD.m`, `EURUSD.pro`, `EURUSD#`, `EURUSD-ECN`, `EURUSD_i` all become `EURUSD`).
 */
export function cleanSymbol(raw: string): string {
  return raw
    .trim()
    .toUpperCase()
    .replace(/[#+!]+$/, '')
    .replace(/[._-][A-Z0-9]{1,8}$/, '')
    .replace(/[#+!]+$/, '');
}

/** The symbol as the broker knows it: the cleaned name first, then the name as written. */
export async function resolveSymbol(adapter: BrokerAdapter, raw: string): Promise<SymbolInfo> {
  const candidates = [...new Set([cleanSymbol(raw), raw.trim(), raw.trim().toUpperCase()])];
  let last: unknown;
  for (const c of candidates) {
    try {
      return await adapter.symbolInfo(c);
    } catch (e) {
      if (!(e instanceof BrokerError) || e.kind !== 'not_found') throw e;
      last = e;
    }
  }
  throw last instanceof Error ? last : new BrokerError(`Unknown symbol: ${raw}.`, 'not_found');
}

/** Candles fetched for an ATR: enough bars for a settled Wilder average even across a weekend. */
const ATR_BARS = 120;

/** Wilder ATR(14) in price units from the account's own candles; null when there are too few. */
export async function atrOf(
  adapter: BrokerAdapter,
  symbol: string,
  timeframe: Exclude<Timeframe, 'MN1'>,
  nowMs: number,
  period = DEFAULT_ATR_PERIOD,
): Promise<number | null> {
  const span = TIMEFRAME_SECONDS[timeframe] * 1000;
  // Weekends and session breaks leave gaps: ask for a window three times the bars needed.
  const candles = await adapter.candles(symbol, timeframe, nowMs - span * ATR_BARS * 3, nowMs);
  const closed = candles.filter((c) => c.time + span <= nowMs).slice(-ATR_BARS);
  const v = averageTrueRange(closed, period);
  return v === null || !Number.isFinite(v) ? null : v;
}
