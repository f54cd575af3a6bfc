import {
  allocateSeries,
  concatSeries,
  isoMs,
  nextMonthStart,
  seriesRange,
  type CandleSeries,
} from '@tradedesk/domain';

const MINUTE = 60_000;
const DAY = 86_400_000;
import type { AppContext } from '../../context';
import type { TradingAccountsTable } from '../../db/schema';
import { brokerRegistry } from '../../brokers/registry';
import { chunkLength, decodeChunkInto } from '../../market/candle-codec';
import { monthKey, monthKeyStart, monthsOf } from '../../market/candle-chunks';
import { candleStore } from '../../market/candle-store';
import { brokerCandleSource, csvCandleSource, simCandleSource } from '../../market/candle-sources';
import { reportsRepo } from './reports.repo';

/** What the M1 reader needs of a trade. */
export interface CandleTrade {
  account_id: string;
  symbol: string;
  opened_at: string;
  closed_at: string;
}

/**
 * The M1 candles of closed trades, read from the candle store's stored chunks: a report never asks a
 * broker for missing months, so it never fails with a broker's 502; a trade whose minutes are not
 * stored is reported as without candles. The simulator's months are computed in process, so for a
 * simulated account missing months are made (and kept) first.
 * Each trade reads its account's own prices (the simulator's for a simulated account), and the
 * user's imported M1 files of the symbol for months the account's source lacks.
 *
 * `measure` is called once per trade (in an order of symbol and entry, not the given order) with
 * the series holding its minutes, or null. Months are decoded one at a time and dropped once no
 * later trade of the symbol can reach them, so memory stays a few months of one symbol.
 */
export async function measureWithCandles<T extends CandleTrade>(
  ctx: AppContext,
  userId: string,
  accounts: readonly TradingAccountsTable[],
  trades: readonly T[],
  measure: (t: T, index: number, m1: CandleSeries | null) => void,
): Promise<void> {
  const repo = reportsRepo(ctx.db);
  const { csv, simKey, sourceOf } = candleSourcesOf(ctx, userId, accounts);
  // Trades by (account source, symbol), each group in order of entry.
  const groups = new Map<string, { source: string; symbol: string; idx: number[] }>();
  trades.forEach((t, i) => {
    const source = sourceOf.get(t.account_id) ?? csv;
    const key = `${source}\u0000${t.symbol}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { source, symbol: t.symbol, idx: [] }));
    g.idx.push(i);
  });
  const monthsSpanned = monthsSpannedBy();
  for (const g of groups.values()) {
    const entry = g.idx.map((i) => isoMs(trades[i]!.opened_at));
    const exit = g.idx.map((i) => isoMs(trades[i]!.closed_at));
    const spans = g.idx.map((_, k) => monthsSpanned(entry[k]!, exit[k]!));
    const order = g.idx.map((_, k) => k).sort((a, b) => entry[a]! - entry[b]!);
    const months = new Set(spans.flat());
    let chunks = await repo.m1Chunks(userId, [g.source, csv], g.symbol, [...months]);
    if (g.source === simKey) {
      // The simulator's history is computed, not fetched: months neither it nor the user's import
      // holds are made (and kept) now, so trades on a simulated account have their candles.
      const have = new Set(chunks.map((c) => c.month));
      const missing = [...months].filter((m) => !have.has(m)).sort();
      if (missing.length && (await fillSimMonths(ctx, userId, g.symbol, missing)))
        chunks = await repo.m1Chunks(userId, [g.source, csv], g.symbol, [...months]);
    }
    // A month from the account's own source wins over the user's import of the same month.
    const blobs = new Map<string, Uint8Array>();
    for (const c of chunks) if (c.source === g.source || !blobs.has(c.month)) blobs.set(c.month, c.data);
    const decoded = new Map<string, CandleSeries>();
    const monthSeries = (key: string): CandleSeries | null => {
      let s = decoded.get(key);
      if (s) return s;
      const blob = blobs.get(key);
      if (!blob) return null;
      s = allocateSeries(chunkLength(blob));
      decodeChunkInto(blob, s, 0);
      decoded.set(key, s);
      return s;
    };
    for (const k of order) {
      const i = g.idx[k]!;
      const t = trades[i]!;
      const spanned = spans[k]!;
      if (spanned.length === 0) {
        measure(t, i, null);
        continue;
      }
      // Entries only move forward: months before this one are done with.
      for (const key of decoded.keys()) if (key < spanned[0]!) decoded.delete(key);
      if (spanned.length === 1) {
        measure(t, i, monthSeries(spanned[0]!));
        continue;
      }
      // Across a month's end: only the trade's own minutes of each month are copied together.
      const from = Math.floor(entry[k]! / MINUTE) * MINUTE;
      const parts = spanned
        .map(monthSeries)
        .filter((s): s is CandleSeries => s !== null)
        .map((s) => seriesRange(s, from, exit[k]! + 1));
      measure(t, i, parts.length === 0 ? null : concatSeries(parts));
    }
  }
}

/**
 * Where each account's M1 comes from (the simulator's shared source for a simulated account, the
 * broker account's own otherwise) and the user's imports, which fill months the account's lack.
 */
export function candleSourcesOf(ctx: AppContext, userId: string, accounts: readonly TradingAccountsTable[]) {
  const registry = brokerRegistry(ctx);
  const simKey = simCandleSource(registry.sim).key;
  return {
    csv: csvCandleSource(userId).key,
    simKey,
    sourceOf: new Map(
      accounts.map((a) => [a.id, a.platform === 'SIM' ? simKey : brokerCandleSource(registry, a).key]),
    ),
  };
}

/**
 * The months ('YYYY-MM') a trade held from `open` to `close` (epoch ms) has minutes in; none when
 * its times cannot be read. Month keys are looked up by UTC day, not worked out with a Date each time.
 */
export function monthsSpannedBy(): (open: number, close: number) => string[] {
  const keyByDay = new Map<number, string>();
  const monthOf = (ms: number) => {
    const day = Math.floor(ms / DAY);
    let key = keyByDay.get(day);
    if (key === undefined) keyByDay.set(day, (key = monthKey(ms)));
    return key;
  };
  return (open, close) => {
    if (!Number.isFinite(open) || !Number.isFinite(close) || close < open) return [];
    const first = monthOf(open);
    return first === monthOf(close) ? [first] : monthsOf(open, close + 1).map((m) => m.key);
  };
}

/**
 * Makes the simulator's M1 of the given months through the candle store (which keeps them).
 * Whole runs of consecutive months are one read each. False when nothing could be made (an
 * unknown symbol): the trades are then reported without candles, never as an error.
 */
async function fillSimMonths(
  ctx: AppContext,
  userId: string,
  symbol: string,
  months: string[],
): Promise<boolean> {
  const store = candleStore(ctx);
  let made = false;
  for (let i = 0; i < months.length;) {
    let j = i + 1;
    while (j < months.length && j - i < 12 && monthKeyStart(months[j]!) === nextMonth(months[j - 1]!)) j++;
    try {
      await store.series({
        userId,
        source: 'sim',
        symbol,
        timeframe: 'M1',
        fromMs: monthKeyStart(months[i]!),
        toMs: nextMonth(months[j - 1]!),
      });
      made = true;
    } catch {
      // An unknown symbol or a range the simulator has no bars for: reported as without candles.
    }
    i = j;
  }
  return made;
}

/** Start of the month after a 'YYYY-MM' month (the domain's calendar step). */
const nextMonth = (key: string): number => nextMonthStart(monthKeyStart(key));
