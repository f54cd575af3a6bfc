import { averageTrueRange, cleanSymbol, DEFAULT_ATR_PERIOD, roundToDigits } from '@tradedesk/domain';
import type { AppContext } from '../../context';
import { brokerRegistry } from '../../brokers/registry';
import {
  BrokerError,
  TIMEFRAME_SECONDS,
  type BrokerAdapter,
  type Candle,
  type SymbolInfo,
  type Timeframe,
} from '../../brokers/types';
import type { AuthUser } from '../../request-context';
import { accountsRepo } from '../accounts/accounts.repo';

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

/** Closed candles an ATR is computed from: enough for a settled Wilder average. */
export const ATR_BARS = 120;
/** Look-back windows, each twice the one before: 2 × ATR_BARS bars first, about 500 × at most. */
const MAX_WINDOWS = 8;

/**
 * Wilder ATR(14) in price units over the last ATR_BARS closed candles of the timeframe, however far
 * back they lie: after a weekend or a holiday the window keeps stepping back until it has them.
 * Null when the broker has too few candles at all.
 */
export async function atrOf(
  adapter: BrokerAdapter,
  symbol: string,
  timeframe: Exclude<Timeframe, 'MN1'>,
  nowMs: number,
  period = DEFAULT_ATR_PERIOD,
): Promise<number | null> {
  const span = TIMEFRAME_SECONDS[timeframe] * 1000;
  let closed: Candle[] = [];
  let to = nowMs;
  for (let i = 0; i < MAX_WINDOWS && closed.length < ATR_BARS; i++) {
    const from = to - span * ATR_BARS * 2 ** (i + 1);
    const batch = await adapter.candles(symbol, timeframe, from, to);
    // Windows do not overlap: [from, to), and only bars that have closed by now.
    closed = [...batch.filter((c) => c.time >= from && c.time < to && c.time + span <= nowMs), ...closed];
    to = from;
  }
  closed.sort((a, b) => a.time - b.time);
  const v = averageTrueRange(closed.slice(-ATR_BARS), period);
  return v === null || !Number.isFinite(v) ? null : v;
}

/** ATR for the Place a Trade modal; null on any failure (unknown symbol or timeframe, broker down). */
export async function atrFor(
  ctx: AppContext,
  user: AuthUser,
  rawSymbol: string,
  rawTimeframe: string,
  accountId?: string,
): Promise<number | null> {
  const accounts = accountsRepo(ctx.db);
  const account = accountId
    ? await accounts.ownedOr404(user.id, accountId)
    : (await accounts.listFor(user.id)).find((a) => a.platform === 'SIM');
  const timeframe = parseTimeframe(rawTimeframe);
  if (!account || !timeframe) return null;
  try {
    const brokers = brokerRegistry(ctx);
    const adapter = await brokers.connected(account);
    const symbol = await resolveSymbol(adapter, rawSymbol);
    const nowMs = account.platform === 'SIM' ? brokers.sim.now() : Date.now();
    const v = await atrOf(adapter, symbol.symbol, timeframe, nowMs);
    return v === null ? null : roundToDigits(v, Math.min(15, symbol.digits + 3));
  } catch (err) {
    ctx.log.info({ err, symbol: rawSymbol, timeframe: rawTimeframe }, 'ATR unavailable');
    return null;
  }
}
