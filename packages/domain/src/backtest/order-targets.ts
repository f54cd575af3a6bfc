/**
 * A strategy's multi-target entries (`ctx.buy(..., targets=[(1.0, 0.5), (2.0, 0.5)])`): the side list
 * that carries them beside the packed orders, their checks, their prices from the fill and the
 * volume each closes. The backtest engine and the live runs' trade requests read them here, and the
 * volumes come from the trades service's own split (`splitVolume`), so a backtest closes the same
 * parts the server closes live.
 */
import { SHARE_TOLERANCE, splitVolume, targetVolumeStep } from '../targets';
import { MAX_ORDER_TARGETS, TARGET_FIELDS, TARGET_KIND } from './types';

/** A strategy order the engine cannot carry out (the strategy's mistake): fails the run with this message. */
export class StrategyOrderError extends Error {}

export interface OrderTarget {
  kind: 'r' | 'price';
  /** An R multiple of the stop distance, or a price. */
  value: number;
  /** Share of the initial volume closed there, (0, 1]. */
  share: number;
}

/**
 * Every order's targets (null where it has none) from the side list (see TARGET_FIELDS), `orders`
 * orders long. The list comes from the sandbox: a malformed one throws StrategyOrderError.
 */
export function decodeOrderTargets(
  packed: ArrayLike<number> | null | undefined,
  orders: number,
): Array<OrderTarget[] | null> {
  const out: Array<OrderTarget[] | null> = [];
  let at = 0;
  for (let n = 0; n < orders; n++) {
    if (!packed || at >= packed.length) {
      out.push(null);
      continue;
    }
    const count = packed[at]!;
    if (!Number.isInteger(count) || count < 0 || count > MAX_ORDER_TARGETS)
      throw new StrategyOrderError('The strategy returned targets the engine cannot read.');
    const end = at + 1 + count * TARGET_FIELDS;
    if (end > packed.length)
      throw new StrategyOrderError('The strategy returned targets the engine cannot read.');
    const list: OrderTarget[] = [];
    for (let k = at + 1; k < end; k += TARGET_FIELDS)
      list.push({
        kind: packed[k] === TARGET_KIND.price ? 'price' : 'r',
        value: packed[k + 1]!,
        share: packed[k + 2]!,
      });
    out.push(count ? list : null);
    at = end;
  }
  return out;
}

/** Sum of the shares, and whether they leave a rest of the position open (sum below 1). */
export const sharesOf = (targets: readonly OrderTarget[]) => {
  const sum = targets.reduce((a, t) => a + t.share, 0);
  return { sum, rest: sum < 1 - SHARE_TOLERANCE };
};

/**
 * The target prices of an entry at `entry` (dir 1 long, -1 short) with the stop `slDistance` away,
 * nearest first as given; or why they cannot be used: a share or value out of range, shares above
 * the whole position, a price on the wrong side of the entry, or targets out of order (each must lie
 * beyond the one before, as the server closes them rank by rank).
 */
export function targetPrices(
  targets: readonly OrderTarget[],
  dir: 1 | -1,
  entry: number,
  slDistance: number,
): { ok: true; prices: number[] } | { ok: false; reason: string } {
  if (targets.length === 0 || targets.length > MAX_ORDER_TARGETS)
    return { ok: false, reason: `an entry takes 1 to ${MAX_ORDER_TARGETS} targets, got ${targets.length}` };
  const prices: number[] = [];
  for (const [k, t] of targets.entries()) {
    const rank = k + 1;
    if (!(t.share > 0 && t.share <= 1))
      return {
        ok: false,
        reason: `target ${rank}: the share must be greater than 0 and at most 1, got ${t.share}`,
      };
    if (!(Number.isFinite(t.value) && t.value > 0))
      return {
        ok: false,
        reason: `target ${rank}: the ${t.kind === 'r' ? 'R multiple' : 'price'} must be positive, got ${t.value}`,
      };
    const price = t.kind === 'r' ? entry + dir * t.value * slDistance : t.value;
    if (!((price - entry) * dir > 0))
      return {
        ok: false,
        reason: `target ${rank} at ${price} is on the wrong side of the entry price ${entry}`,
      };
    const before = prices[k - 1];
    if (before !== undefined && !((price - before) * dir > 0))
      return {
        ok: false,
        reason: `target ${rank} at ${price} is not beyond target ${k} at ${before}: give targets nearest first`,
      };
    prices.push(price);
  }
  const { sum } = sharesOf(targets);
  if (sum > 1 + SHARE_TOLERANCE)
    return { ok: false, reason: `the target shares sum to ${sum}, more than the whole position (1)` };
  return { ok: true, prices };
}

/** One target as the engine manages it: close `volume` lots when the exit side reaches `price`. */
export interface TargetLeg {
  price: number;
  volume: number;
}

/**
 * How an entry of `volume` lots is managed, as the trades service manages a multi-TP trade: the
 * volume is split by the shares (`splitVolume`: floored to the step, parts below the minimum volume
 * merged into the next); every target with volume is a partial close, except that when the shares
 * sum to 1 the last one is the position's take profit (at the broker, live), which closes whatever
 * is left. With a rest, `tp` is NaN: the rest runs to the stop, a new target, a close or the end.
 */
export function targetLegs(
  targets: readonly OrderTarget[],
  prices: readonly number[],
  volume: number,
  symbol: { volumeStep: number; volumeMin: number },
): { partials: TargetLeg[]; tp: number } {
  const volumes = splitVolume(
    volume,
    targets.map((t) => t.share),
    targetVolumeStep(volume, symbol.volumeStep),
    symbol.volumeMin,
  );
  const legs = prices.map((price, k) => ({ price, volume: volumes[k]! })).filter((l) => l.volume > 0);
  if (sharesOf(targets).rest) return { partials: legs, tp: NaN };
  const last = legs.pop();
  return { partials: legs, tp: last ? last.price : NaN };
}
