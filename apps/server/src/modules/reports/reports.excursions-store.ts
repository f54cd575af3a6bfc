import { endianness } from 'node:os';
import { measureExcursion, TRADE_SELL } from '@tradedesk/domain';
import type { AppContext } from '../../context';
import type { TradingAccountsTable } from '../../db/schema';
import { candleSourcesOf, measureWithCandles, monthsSpannedBy } from './reports.candles';
import { aligned } from './reports.facts-codec';
import type { FactChunk } from './reports.facts';
import { reportsRepo } from './reports.repo';

if (endianness() !== 'LE') throw new Error('The excursions codec needs a little-endian platform.');

/** Not measured: no entry price, or no candle of the trade's time. */
export const NOT_MEASURED = 0;
export const MEASURED = 1;
export const MEASURED_NEGATIVE_FIRST = 2;

/** The price excursions of one month chunk's trades, by position in the chunk. */
export interface ChunkExcursions {
  /** NOT_MEASURED, MEASURED or MEASURED_NEGATIVE_FIRST. */
  state: Uint8Array;
  mfe: Float64Array;
  mae: Float64Array;
}

/** Blob: u8 format (1), 3 bytes reserved, u32 n, then mfe f64[n], mae f64[n], state u8[n]. */
const FORMAT = 1;
const HEADER = 8;

function encode(x: ChunkExcursions): Uint8Array {
  const n = x.state.length;
  const out = new Uint8Array(HEADER + 16 * n + n);
  out[0] = FORMAT;
  new DataView(out.buffer).setUint32(4, n, true);
  new Float64Array(out.buffer, HEADER, n).set(x.mfe);
  new Float64Array(out.buffer, HEADER + 8 * n, n).set(x.mae);
  out.set(x.state, HEADER + 16 * n);
  return out;
}

function decode(blob: Uint8Array): ChunkExcursions {
  if (blob.length < HEADER || blob[0] !== FORMAT)
    throw new Error(`Unreadable stored excursions (format ${blob[0]}).`);
  const b = aligned(blob);
  const n = new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(4, true);
  return {
    mfe: new Float64Array(b.buffer, b.byteOffset + HEADER, n),
    mae: new Float64Array(b.buffer, b.byteOffset + HEADER + 8 * n, n),
    state: new Uint8Array(b.buffer, b.byteOffset + HEADER + 16 * n, n),
  };
}

const empty = (n: number): ChunkExcursions => ({
  state: new Uint8Array(n),
  mfe: new Float64Array(n),
  mae: new Float64Array(n),
});

/**
 * MFE/MAE kept per account and month (report_excursions): a closed trade's excursion changes only
 * when the trade does (its month's copy then has a new version) or the candles of its minutes do
 * (a candle month written again, or arriving for a trade that had none, changes its write count).
 * A stored month is used only when it was measured on the month's current copy and on exactly the
 * candle months stored now; any other month is measured again, all of them in one pass over the
 * candles, and kept.
 */
export function excursionStore(ctx: AppContext) {
  const repo = reportsRepo(ctx.db);

  return async function excursionsOf(
    userId: string,
    accounts: readonly TradingAccountsTable[],
    chunks: readonly FactChunk[],
  ): Promise<ChunkExcursions[]> {
    if (chunks.length === 0) return [];
    const { csv, sourceOf } = candleSourcesOf(ctx, userId, accounts);
    const spanned = monthsSpannedBy();
    // The (symbol, month) pairs each chunk's measurable trades have minutes in.
    const needs = chunks.map((c) => {
      const f = c.facts;
      const entry = c.tradeData!.entry;
      // By symbol code: the months (cached strings, so no text is built per trade).
      const bySymbol = new Map<number, Set<string>>();
      for (let i = 0; i < f.n; i++) {
        if (Number.isNaN(entry[i]!)) continue;
        let months = bySymbol.get(f.symbol[i]!);
        if (!months) bySymbol.set(f.symbol[i]!, (months = new Set()));
        for (const m of spanned(f.openedMs[i]!, f.closedMs[i]!)) months.add(m);
      }
      const pairs: string[] = [];
      for (const [code, months] of bySymbol) for (const m of months) pairs.push(`${f.texts[code]}\u001f${m}`);
      return pairs.sort();
    });
    const symbols = new Set<string>();
    const months = new Set<string>();
    for (const list of needs)
      for (const p of list) {
        const [symbol, month] = p.split('\u001f');
        symbols.add(symbol!);
        months.add(month!);
      }
    const sources = [...new Set([...sourceOf.values(), csv])];
    const stamps = new Map(
      (await repo.m1Stamps(userId, sources, [...symbols], [...months])).map((s) => [
        `${s.source}\u001f${s.symbol}\u001f${s.month}`,
        `${s.version}@${s.updated_at}`,
      ]),
    );
    // The candle months a chunk is measured on: the account's own, else the user's import, else none.
    const keys = chunks.map((c, k) => {
      const source = sourceOf.get(c.account_id) ?? csv;
      const parts = needs[k]!.map((p) => {
        const own = stamps.get(`${source}\u001f${p}`);
        if (own) return `${p}=${own}`;
        const imported = stamps.get(`${csv}\u001f${p}`);
        return imported ? `${p}=import ${imported}` : `${p}=-`;
      });
      // Separators the key's text (stored, so no NUL) cannot otherwise hold: symbols are printable.
      return `${source}\u001e${parts.join('\u001e')}`;
    });

    const stored = new Map(
      (
        await repo.excursions(
          [...new Set(chunks.map((c) => c.account_id))],
          chunks[0]!.month,
          chunks.at(-1)!.month,
        )
      ).map((r) => [`${r.account_id}\u0000${r.month}`, r]),
    );
    const out: ChunkExcursions[] = [];
    const stale: number[] = [];
    chunks.forEach((c, k) => {
      const row = stored.get(`${c.account_id}\u0000${c.month}`);
      if (row && row.facts_version === c.version && row.candles_key === keys[k]) out[k] = decode(row.data);
      else {
        out[k] = empty(c.facts.n);
        stale.push(k);
      }
    });
    if (stale.length === 0) return out;

    const inputs: {
      k: number;
      i: number;
      account_id: string;
      symbol: string;
      opened_at: string;
      closed_at: string;
    }[] = [];
    for (const k of stale) {
      const c = chunks[k]!;
      const f = c.facts;
      const data = c.tradeData!;
      for (let i = 0; i < f.n; i++) {
        if (Number.isNaN(data.entry[i]!)) continue;
        inputs.push({
          k,
          i,
          account_id: c.account_id,
          symbol: f.texts[f.symbol[i]!]!,
          opened_at: data.openedText.get(i) ?? new Date(f.openedMs[i]!).toISOString(),
          closed_at: f.closedText.get(i) ?? new Date(f.closedMs[i]!).toISOString(),
        });
      }
    }
    await measureWithCandles(ctx, userId, accounts, inputs, (t, _index, m1) => {
      const c = chunks[t.k]!;
      const f = c.facts;
      const p =
        m1 &&
        measureExcursion(
          !(f.flags[t.i]! & TRADE_SELL),
          c.tradeData!.entry[t.i]!,
          f.openedMs[t.i]!,
          f.closedMs[t.i]!,
          m1,
        );
      if (!p) return;
      const x = out[t.k]!;
      x.state[t.i] = p.negative_first ? MEASURED_NEGATIVE_FIRST : MEASURED;
      x.mfe[t.i] = p.mfe_price;
      x.mae[t.i] = p.mae_price;
    });
    // Keyed by the candle months read before measuring: a month written since is measured again.
    for (const k of stale)
      await repo.saveExcursions({
        account_id: chunks[k]!.account_id,
        month: chunks[k]!.month,
        facts_version: chunks[k]!.version,
        candles_key: keys[k]!,
        data: encode(out[k]!),
      });
    return out;
  };
}
