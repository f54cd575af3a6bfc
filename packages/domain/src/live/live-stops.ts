/**
 * Stop entries (`stop=`) of a live run. The trades service knows market and limit orders only, so
 * the run holds its stop entries itself ("armed"), as brokers' virtual stops are, and sends one as a
 * market entry once the account's quote crosses its price. As the backtest engine's pending entries,
 * armed stops accumulate (a strategy asking for one on every bar holds one per bar) until they
 * trigger or ctx.close() of their symbol cancels them.
 */
import { liveEntryRequest, type LiveEntryOrder } from './live-orders';

export interface ArmedStop {
  symbol: string;
  /** Open time of the bar whose orders armed it, and its index among them: its client order id. */
  barOpenMs: number;
  index: number;
  order: LiveEntryOrder;
}

/** Most stop entries one run holds at once: a strategy arming one per bar without end is refused. */
export const MAX_ARMED_STOPS = 100;

/** A buy stop triggers when the ask reaches its price, a sell stop when the bid does. */
export function stopTriggered(
  order: Pick<LiveEntryOrder, 'direction' | 'price'>,
  quote: { bid: number; ask: number },
): boolean {
  return order.direction === 'BUY' ? quote.ask >= order.price : quote.bid <= order.price;
}

const sameStop = (a: ArmedStop, b: ArmedStop) =>
  a.symbol === b.symbol && a.barOpenMs === b.barOpenMs && a.index === b.index;

/**
 * Arms a stop entry: the list with it added (unchanged when that bar's order is armed already: a
 * replayed bar), or why it is refused now. It is checked as a fill exactly at its price would be
 * (a stop loss, sl on the right side, tp or targets that fit); at the trigger it is checked again
 * against the quote it is sent at.
 */
export function armStop(
  armed: readonly ArmedStop[],
  stop: ArmedStop,
): { ok: true; armed: ArmedStop[]; added: boolean } | { ok: false; reason: string } {
  const price = stop.order.price;
  if (!(Number.isFinite(price) && price > 0))
    return { ok: false, reason: 'a stop entry needs a positive price' };
  if (armed.some((a) => sameStop(a, stop))) return { ok: true, armed: [...armed], added: false };
  const check = liveEntryRequest(stop.order, { bid: price, ask: price }, 1, { triggered: true });
  if (!check.ok) return check;
  if (armed.length >= MAX_ARMED_STOPS)
    return { ok: false, reason: `the run already holds ${MAX_ARMED_STOPS} armed stop entries` };
  return { ok: true, armed: [...armed, stop], added: true };
}

/** ctx.close() of `symbol`: its armed stops are cancelled, the others kept. */
export function cancelStops(
  armed: readonly ArmedStop[],
  symbol: string,
): { kept: ArmedStop[]; cancelled: ArmedStop[] } {
  return {
    kept: armed.filter((a) => a.symbol !== symbol),
    cancelled: armed.filter((a) => a.symbol === symbol),
  };
}

/** "BUY EURUSD at 1.105 (tag)", for the run's log. */
export function describeStop(s: ArmedStop): string {
  return `${s.order.direction} ${s.symbol} at ${s.order.price}${s.order.tag ? ` (${s.order.tag})` : ''}`;
}

/** The armed stops as stored with the run (JSON; NaN, "not given", stored as null). */
export function encodeArmedStops(armed: readonly ArmedStop[]): string {
  return JSON.stringify(armed);
}

const num = (v: unknown) => (typeof v === 'number' ? v : Number.NaN);

/** The stored armed stops back; anything but a list of them reads as none. */
export function decodeArmedStops(text: string | null | undefined): ArmedStop[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  return raw.map((r: { symbol: string; barOpenMs: number; index: number; order: LiveEntryOrder }) => ({
    symbol: String(r.symbol),
    barOpenMs: Number(r.barOpenMs),
    index: Number(r.index),
    order: {
      type: 'entry',
      direction: r.order.direction === 'SELL' ? 'SELL' : 'BUY',
      kind: num(r.order.kind),
      price: num(r.order.price),
      sl: num(r.order.sl),
      tp: num(r.order.tp),
      tpR: num(r.order.tpR),
      slDistance: num(r.order.slDistance),
      risk: num(r.order.risk),
      tag: typeof r.order.tag === 'string' ? r.order.tag : null,
      targets: Array.isArray(r.order.targets) ? r.order.targets : null,
    },
  }));
}
