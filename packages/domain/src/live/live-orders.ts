/**
 * Pure steps of a bot live run: which bar just closed, what the strategy's packed orders mean, and the
 * trade request an entry becomes (the same fields a person's Place a Trade request carries, so the
 * trades service plans, checks and places it as it would theirs).
 */
import type { TargetSpec } from '../targets';
import { decodeOrderTargets, sharesOf, targetPrices } from '../backtest/order-targets';
import { ORDER_FIELDS, ORDER_SIDE } from '../backtest/types';
import { unpackEntry, type EntryFields } from '../backtest/entry-order';

/**
 * Open time of the last bar of `barMs` that has closed at `nowMs`. Bars of M1..D1 open at multiples
 * of their length from the epoch (UTC), as the candle store cuts them; a bar closes at open + barMs.
 */
export function lastClosedBarOpen(nowMs: number, barMs: number): number {
  return Math.floor(nowMs / barMs) * barMs - barMs;
}

/** Instant of the next bar close after `nowMs`. */
export function nextBarClose(nowMs: number, barMs: number): number {
  return Math.floor(nowMs / barMs) * barMs + barMs;
}

export type LiveOrder =
  | LiveEntryOrder
  | { type: 'close' }
  | { type: 'set_stop'; price: number }
  | { type: 'set_target'; price: number };

/** An entry of the strategy (the backtest engine's fields), with its side and tag. */
export interface LiveEntryOrder extends EntryFields {
  type: 'entry';
  direction: 'BUY' | 'SELL';
  tag: string | null;
}

/**
 * The strategy's orders as ctx.buy/sell/close/set_stop/set_target packed them (8 floats each), with
 * their tags and their targets' side list.
 */
export function decodeOrders(
  packed: ArrayLike<number>,
  tags: ReadonlyArray<string | null> = [],
  targets: ArrayLike<number> | null = null,
): LiveOrder[] {
  const lists = decodeOrderTargets(targets, Math.floor(packed.length / ORDER_FIELDS));
  const out: LiveOrder[] = [];
  for (let k = 0, n = 0; k + ORDER_FIELDS <= packed.length; k += ORDER_FIELDS, n++) {
    const side = packed[k]!;
    if (side === ORDER_SIDE.close) out.push({ type: 'close' });
    else if (side === ORDER_SIDE.setStop) out.push({ type: 'set_stop', price: packed[k + 3]! });
    else if (side === ORDER_SIDE.setTarget) out.push({ type: 'set_target', price: packed[k + 4]! });
    else
      out.push({
        type: 'entry',
        direction: side > 0 ? 'BUY' : 'SELL',
        tag: tags[n] ?? null,
        ...unpackEntry(packed, k, lists[n] ?? null),
      });
  }
  return out;
}

export interface LiveEntryRequest {
  direction: 'BUY' | 'SELL';
  order_type: 'MARKET' | 'LIMIT';
  limit_price?: number;
  stop_loss_distance: number;
  take_profit?: number;
  rr_ratio?: number;
  risk_percent: number;
  /** A multi-target entry: the trades service closes the targets as partial closes. */
  partial_profit?: true;
  targets?: TargetSpec[];
  /** The shares sum to less than 1: the rest stays open without a target. */
  keep_rest_open?: true;
}

const finite = (v: number) => Number.isFinite(v);

/**
 * The trade request of an entry at the current quote: the stop as a distance from the entry price
 * (the ask for a buy, the bid for a sell, or the limit price), the target as a price or an R
 * multiple, or the targets as a person's multi-TP request (RR or PRICE targets ranked 1.. with their
 * shares, `keep_rest_open` when they leave a rest), the risk percent the strategy asked for or the
 * account's default. A stop entry is a market entry once `triggered` (the run holds it until the
 * quote crosses its price, live-stops.ts), refused before. A stop on the wrong side, no stop at all,
 * or targets the backtest engine would refuse too are refused with the reason (positions are sized
 * by risk).
 */
export function liveEntryRequest(
  order: LiveEntryOrder,
  quote: { bid: number; ask: number },
  defaultRiskPercent: number,
  opts: { triggered?: boolean } = {},
): { ok: true; request: LiveEntryRequest } | { ok: false; reason: string } {
  if (order.kind === 2 && !opts.triggered)
    return { ok: false, reason: 'a stop entry (stop=) is sent only once the quote crosses its price' };
  const dir = order.direction === 'BUY' ? 1 : -1;
  const limit = order.kind === 1;
  if (limit && !(order.price > 0)) return { ok: false, reason: 'a limit order needs a positive price' };
  const entry = limit ? order.price : dir === 1 ? quote.ask : quote.bid;
  const distance = finite(order.sl) ? (entry - order.sl) * dir : order.slDistance;
  if (!finite(distance))
    return { ok: false, reason: 'buy() and sell() need sl or sl_distance: positions are sized by risk' };
  if (!(distance > 0))
    return {
      ok: false,
      reason: `the stop loss ${order.sl} is on the wrong side of the entry price ${entry}`,
    };
  const risk = finite(order.risk) && order.risk > 0 ? order.risk : defaultRiskPercent;
  const request: LiveEntryRequest = {
    direction: order.direction,
    order_type: limit ? 'LIMIT' : 'MARKET',
    stop_loss_distance: distance,
    risk_percent: risk,
  };
  if (limit) request.limit_price = order.price;
  if (order.targets) {
    if (finite(order.tp) || finite(order.tpR))
      return { ok: false, reason: 'buy() and sell() take targets or tp / tp_r, not both' };
    const prices = targetPrices(order.targets, dir, entry, distance);
    if (!prices.ok) return { ok: false, reason: `the targets cannot be used: ${prices.reason}` };
    request.partial_profit = true;
    request.targets = order.targets.map((t, k) =>
      t.kind === 'r'
        ? { rank: k + 1, share: t.share, tp_type: 'RR', rr: t.value }
        : { rank: k + 1, share: t.share, tp_type: 'PRICE', price: t.value },
    );
    if (sharesOf(order.targets).rest) request.keep_rest_open = true;
  } else if (finite(order.tp)) {
    if (!((order.tp - entry) * dir > 0))
      return {
        ok: false,
        reason: `the take profit ${order.tp} is on the wrong side of the entry price ${entry}`,
      };
    request.take_profit = order.tp;
  } else if (finite(order.tpR) && order.tpR > 0) request.rr_ratio = order.tpR;
  return { ok: true, request };
}

/** p-th percentile (0-100) by nearest rank of unsorted values; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}
