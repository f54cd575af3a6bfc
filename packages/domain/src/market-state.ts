/**
 * What a trader should read next to a price: is the market open, closed (and until when), is the
 * price stale (no tick for a while), or is the broker unavailable (and why). One answer for every
 * screen that shows a price: the live quote cards and the trade ticket call this, never their own.
 *
 * Pure: the caller passes the clock. The broker's session (open, next open) is the server's word;
 * staleness is measured on the caller's clock from when the last quote *arrived*, because the quote's
 * own time is the broker's clock, which need not agree with the browser's.
 */

/** The broker's session as the server sends it (instants in epoch ms). */
export interface SessionFacts {
  open: boolean;
  nextOpenMs: number | null;
  nextCloseMs: number | null;
}

export interface MarketStateInput {
  nowMs: number;
  /** The broker's session, when it told one; null or undefined when it has no timetable. */
  session?: SessionFacts | null;
  /** When the last quote arrived (caller's clock), null before the first one. */
  lastQuoteAtMs: number | null;
  /** The server's reason when the broker is down or refused; null when it is fine. */
  unavailableReason?: string | null;
  staleAfterMs?: number;
}

export type MarketState =
  | { kind: 'unavailable'; reason: string }
  | { kind: 'closed'; nextOpenMs: number | null }
  | { kind: 'stale'; quietForMs: number }
  | { kind: 'waiting' }
  | { kind: 'open' };

/** No tick for this long on an open market is "stale": the sim ticks 4 times a second, live FX many. */
export const STALE_AFTER_MS = 30_000;

export function marketState(input: MarketStateInput): MarketState {
  const { nowMs, session, lastQuoteAtMs } = input;
  if (input.unavailableReason) return { kind: 'unavailable', reason: input.unavailableReason };
  if (session && !session.open) return { kind: 'closed', nextOpenMs: session.nextOpenMs };
  if (lastQuoteAtMs === null) return { kind: 'waiting' };
  const quietForMs = Math.max(0, nowMs - lastQuoteAtMs);
  if (quietForMs > (input.staleAfterMs ?? STALE_AFTER_MS)) return { kind: 'stale', quietForMs };
  return { kind: 'open' };
}

/** Buy, Sell and Execute are refused while closed or unavailable: the reason to show, else null. */
export function tradingBlockedReason(state: MarketState, symbol: string): string | null {
  if (state.kind === 'closed') return `The market for ${symbol} is closed.`;
  if (state.kind === 'unavailable') return state.reason;
  return null;
}
