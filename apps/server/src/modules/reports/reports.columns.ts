import { allocateColumns, TextCodes, type ReportColumns } from '@tradedesk/domain';
import { plainInstant } from './reports.facts-codec';
import type { FactChunk } from './reports.facts';

/** Which closed trades a report takes (the SQL filters of before, applied to the copy). */
export interface ColumnFilter {
  /** Inclusive lower bound of closed_at (ISO), compared as text like the database did. */
  from?: string;
  /** Exclusive upper bound of closed_at (ISO). */
  toExclusive?: string;
  /** The exact symbol. */
  instrument?: string;
  /** The latest strategy tag, ignoring case (already trimmed and lower-cased). */
  tag?: string;
}

/** The report's trades and, for each, the chunk and position it comes from. */
export interface JoinedColumns {
  trades: ReportColumns;
  chunkOf: Uint32Array;
  localOf: Uint32Array;
}

/** The stored text of a chunk's closing instant. */
export const closedText = (c: FactChunk, i: number): string =>
  c.facts.closedText.get(i) ?? new Date(c.facts.closedMs[i]!).toISOString();

/**
 * Positions of a month's trades from several accounts in closing order: merged by closing instant
 * (as text) and id, the order the reports always had. (One account's chunk is in that order already.)
 */
function mergedOrder(chunks: readonly FactChunk[], members: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const k of members) for (let i = 0; i < chunks[k]!.facts.n; i++) out.push([k, i]);
  const anyOdd = members.some((k) => chunks[k]!.facts.closedText.size > 0);
  const idOf = (k: number, i: number) => {
    const data = chunks[k]!.tradeData;
    if (!data) throw new Error('Trades of several accounts are ordered by id: read with their trade data.');
    return data.ids[i]!;
  };
  return out.sort(([ka, ia], [kb, ib]) => {
    if (anyOdd) {
      const a = closedText(chunks[ka]!, ia);
      const b = closedText(chunks[kb]!, ib);
      if (a !== b) return a < b ? -1 : 1;
    } else {
      const d = chunks[ka]!.facts.closedMs[ia]! - chunks[kb]!.facts.closedMs[ib]!;
      if (d !== 0) return d;
    }
    const x = idOf(ka, ia);
    const y = idOf(kb, ib);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** Epoch ms of a bound when comparing times agrees with comparing the texts, else null. */
function plainBound(bound: string | undefined): number | null | undefined {
  if (bound === undefined) return undefined;
  const ms = Date.parse(bound);
  return plainInstant(bound, ms) ? ms : null;
}

/**
 * The chunks' trades (chunks by month, then account) as one set of columns in closing order,
 * narrowed by the filter, with one list of texts for all.
 */
export function joinChunks(chunks: readonly FactChunk[], f: ColumnFilter): JoinedColumns {
  const fromMs = plainBound(f.from);
  const toMs = plainBound(f.toExclusive);
  const byText = fromMs === null || toMs === null;
  const codes = new TextCodes();
  // Per chunk: its codes in the joined list, and which of its codes pass the text filters.
  const remap = chunks.map((c) => Uint32Array.from(c.facts.texts, (t) => codes.code(t)));
  const passes = chunks.map((c) => {
    const symbolOk = c.facts.texts.map((t) => f.instrument === undefined || t === f.instrument);
    const tagOk = c.facts.texts.map((t) => f.tag === undefined || t?.toLowerCase() === f.tag);
    return { symbolOk, tagOk };
  });
  const keep = (k: number, i: number): boolean => {
    const c = chunks[k]!;
    const { symbolOk, tagOk } = passes[k]!;
    if (!symbolOk[c.facts.symbol[i]!] || !tagOk[c.facts.strategyTag[i]!]) return false;
    if (byText || c.facts.closedText.has(i)) {
      const s = closedText(c, i);
      return (f.from === undefined || s >= f.from) && (f.toExclusive === undefined || s < f.toExclusive);
    }
    const ms = c.facts.closedMs[i]!;
    return (fromMs === undefined || ms >= fromMs!) && (toMs === undefined || ms < toMs!);
  };

  // The trades kept, as runs of consecutive positions of one chunk, in closing order.
  const runs: { k: number; from: number; to: number }[] = [];
  const push = (k: number, from: number, to: number) => {
    const last = runs.at(-1);
    if (last && last.k === k && last.to === from) last.to = to;
    else runs.push({ k, from, to });
  };
  const whole = (k: number): boolean => {
    const c = chunks[k]!.facts;
    if (f.instrument !== undefined || f.tag !== undefined || byText || c.closedText.size > 0) return false;
    return (
      c.n === 0 ||
      ((fromMs === undefined || c.closedMs[0]! >= fromMs!) &&
        (toMs === undefined || c.closedMs[c.n - 1]! < toMs!))
    );
  };
  for (let k = 0; k < chunks.length;) {
    let end = k + 1;
    while (end < chunks.length && chunks[end]!.month === chunks[k]!.month) end++;
    if (end === k + 1) {
      const c = chunks[k]!.facts;
      if (whole(k)) push(k, 0, c.n);
      else for (let i = 0; i < c.n; i++) if (keep(k, i)) push(k, i, i + 1);
    } else {
      const members = Array.from({ length: end - k }, (_, j) => k + j);
      for (const [ck, i] of mergedOrder(chunks, members)) if (keep(ck, i)) push(ck, i, i + 1);
    }
    k = end;
  }

  let n = 0;
  for (const run of runs) n += run.to - run.from;
  const chunkOf = new Uint32Array(n);
  const localOf = new Uint32Array(n);
  const trades = allocateColumns(n, codes.texts, (r) => closedText(chunks[chunkOf[r]!]!, localOf[r]!));
  const codeColumns = ['symbol', 'trader', 'strategyTag', 'emotionalState', 'marketCondition'] as const;
  let r = 0;
  for (const { k, from, to } of runs) {
    const c = chunks[k]!.facts;
    const map = remap[k]!;
    chunkOf.fill(k, r, r + to - from);
    for (let i = from; i < to; i++) localOf[r + i - from] = i;
    trades.closedMs.set(c.closedMs.subarray(from, to), r);
    trades.openedMs.set(c.openedMs.subarray(from, to), r);
    trades.pnl.set(c.pnl.subarray(from, to), r);
    trades.risk.set(c.risk.subarray(from, to), r);
    trades.flags.set(c.flags.subarray(from, to), r);
    for (const name of codeColumns) {
      const src = c[name];
      const dst = trades[name];
      for (let i = from; i < to; i++) dst[r + i - from] = map[src[i]!]!;
    }
    r += to - from;
  }
  return { trades, chunkOf, localOf };
}
