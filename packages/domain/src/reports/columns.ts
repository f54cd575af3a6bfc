/**
 * Closed trades as columns: one typed array per field and one list of the texts they name. The
 * reports read 100,000 trades a request; as columns that is a dozen arrays instead of 100,000
 * objects to build, walk and collect. Every report function computes from columns; the versions
 * that take `ReportTrade` objects convert with `columnsOf` and call them.
 */
import type { ReportTrade } from './figures';
import { isoMs } from './time-zone';

/** Bits of `flags`. TRADE_SELL: any direction but 'BUY' (as every report reads it). */
export const TRADE_SELL = 1;
export const TRADE_BOT = 2;
export const TRADE_JOURNALED = 4;
export const TRADE_WITH_SNAPSHOT = 8;
export const TRADE_WITH_REASON = 16;

export interface ReportColumns {
  length: number;
  /** Epoch ms of the closing (`isoMs` of the stored instant). */
  closedMs: Float64Array;
  /** Epoch ms of the first fill. */
  openedMs: Float64Array;
  /** Realised P/L, minor units. */
  pnl: Float64Array;
  /** Money risked at entry, minor units; NaN when unknown. */
  risk: Float64Array;
  /** Codes into `texts`; 0 is none (null). */
  symbol: Uint32Array;
  trader: Uint32Array;
  strategyTag: Uint32Array;
  emotionalState: Uint32Array;
  marketCondition: Uint32Array;
  /** TRADE_* bits. */
  flags: Uint8Array;
  /** The texts the codes name; `texts[0]` is null. */
  texts: readonly (string | null)[];
  /** The instant trade `i` closed, as stored (ISO 8601). */
  closedAt(i: number): string;
}

/** Empty columns of `n` trades (the texts to be filled in by the caller). */
export function allocateColumns(
  n: number,
  texts: readonly (string | null)[],
  closedAt: (i: number) => string,
): ReportColumns {
  return {
    length: n,
    closedMs: new Float64Array(n),
    openedMs: new Float64Array(n),
    pnl: new Float64Array(n),
    risk: new Float64Array(n),
    symbol: new Uint32Array(n),
    trader: new Uint32Array(n),
    strategyTag: new Uint32Array(n),
    emotionalState: new Uint32Array(n),
    marketCondition: new Uint32Array(n),
    flags: new Uint8Array(n),
    texts,
    closedAt,
  };
}

/** Codes for texts, the same text always the same code; code 0 is null. */
export class TextCodes {
  readonly texts: (string | null)[] = [null];
  private readonly codes = new Map<string, number>();

  code(text: string | null | undefined): number {
    if (text === null || text === undefined) return 0;
    let c = this.codes.get(text);
    if (c === undefined) {
      c = this.texts.length;
      this.texts.push(text);
      this.codes.set(text, c);
    }
    return c;
  }
}

/** Report trades (in closing order) as columns. */
export function columnsOf(trades: readonly ReportTrade[]): ReportColumns {
  const codes = new TextCodes();
  const c = allocateColumns(trades.length, codes.texts, (i) => trades[i]!.closed_at);
  trades.forEach((t, i) => {
    c.closedMs[i] = isoMs(t.closed_at);
    c.openedMs[i] = isoMs(t.opened_at);
    c.pnl[i] = t.pnl_minor;
    c.risk[i] = t.initial_risk_minor ?? NaN;
    c.symbol[i] = codes.code(t.symbol);
    c.trader[i] = codes.code(t.trader);
    c.strategyTag[i] = codes.code(t.strategy_tag);
    c.emotionalState[i] = codes.code(t.emotional_state);
    c.marketCondition[i] = codes.code(t.market_condition);
    c.flags[i] = tradeFlags(t);
  });
  return c;
}

/** The TRADE_* bits of a report trade. */
export function tradeFlags(
  t: Pick<ReportTrade, 'direction' | 'bot' | 'journaled' | 'with_snapshot' | 'with_reason'>,
): number {
  return (
    (t.direction === 'BUY' ? 0 : TRADE_SELL) |
    (t.bot ? TRADE_BOT : 0) |
    (t.journaled ? TRADE_JOURNALED : 0) |
    (t.with_snapshot ? TRADE_WITH_SNAPSHOT : 0) |
    (t.with_reason ? TRADE_WITH_REASON : 0)
  );
}
