/**
 * Multi-target plans: a position split into partial targets, each closing its share when reached.
 * Shares are fractions (0-1] summing to 1; each target resolves to a price and a volume. Volumes are
 * floored to the volume step and the remainder goes to the last target, so the targets always close
 * exactly the whole position. A plan that keeps a rest (bot strategies' targets may sum to less than
 * 1) leaves that rest open, without a target.
 */
import { floorVolume } from './lot-size';
import { floorToStep, roundToDigits, stepDecimals } from './rounding';
import { resolveTakeProfit, TradeValidationError, type PriceContext, type TakeProfitMode } from './stops';

export type TargetType = 'RR' | 'ATR' | 'PRICE';

/** One target as sent in a trade request (spec: rank, share 0-1, tp_type, rr, atr_multiplier, price). */
export interface TargetSpec {
  rank: number;
  share: number;
  tp_type: TargetType;
  rr?: number | null;
  atr_multiplier?: number | null;
  price?: number | null;
}

/** A profit profile's partial target (size_pct in percent, 0-100). */
export interface PartialTarget {
  r_multiple: number;
  size_pct: number;
}

/** How far the shares may be from summing to exactly 1 (UI percentages like 33.3/33.3/33.4 pass). */
export const SHARE_TOLERANCE = 1e-6;

/** Default multi-TP plan: two targets at 50 % with 1.5R and 3R (spec §9). */
export const DEFAULT_TARGETS: readonly TargetSpec[] = Object.freeze([
  { rank: 1, share: 0.5, tp_type: 'RR', rr: 1.5 },
  { rank: 2, share: 0.5, tp_type: 'RR', rr: 3 },
]);

/** Fallback when no profit profile is available: three at 30/30/40 % with 1.25R, 2.5R and 4R (spec §9). */
export const PROFILE_FALLBACK_TARGETS: readonly TargetSpec[] = Object.freeze([
  { rank: 1, share: 0.3, tp_type: 'RR', rr: 1.25 },
  { rank: 2, share: 0.3, tp_type: 'RR', rr: 2.5 },
  { rank: 3, share: 0.4, tp_type: 'RR', rr: 4 },
]);

function positive(v: number | null | undefined): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0;
}

/**
 * Every problem with a target list, as user-facing messages (empty when valid). With `rest` the
 * shares may sum to less than 100 % (the rest of the position stays open), never to more.
 */
export function targetErrors(targets: readonly TargetSpec[], opts: { rest?: boolean } = {}): string[] {
  const errors: string[] = [];
  if (targets.length === 0) return ['At least one target is required.'];
  const ranks = new Set<number>();
  let sum = 0;
  for (const t of targets) {
    if (ranks.has(t.rank)) errors.push(`Target rank ${t.rank} appears more than once.`);
    ranks.add(t.rank);
    if (!(Number.isFinite(t.share) && t.share > 0 && t.share <= 1)) {
      errors.push(`Target ${t.rank}: share must be greater than 0 and at most 1, got ${t.share}.`);
    } else {
      sum += t.share;
    }
    if (t.tp_type === 'RR' && !positive(t.rr))
      errors.push(`Target ${t.rank}: an RR target needs a positive rr.`);
    if (t.tp_type === 'ATR' && t.atr_multiplier != null && !positive(t.atr_multiplier)) {
      errors.push(`Target ${t.rank}: atr_multiplier must be positive.`);
    }
    if (t.tp_type === 'PRICE' && !positive(t.price))
      errors.push(`Target ${t.rank}: a PRICE target needs a positive price.`);
  }
  if (errors.length === 0 && opts.rest && sum > 1 + SHARE_TOLERANCE) {
    errors.push(`Target shares must sum to at most 100%, they sum to ${roundToDigits(sum * 100, 4)}%.`);
  } else if (errors.length === 0 && !opts.rest && Math.abs(sum - 1) > SHARE_TOLERANCE) {
    errors.push(`Target shares must sum to 100%, they sum to ${roundToDigits(sum * 100, 4)}%.`);
  }
  return errors;
}

/** Throws a TradeValidationError (field "targets") listing the first problem. */
export function assertTargets(targets: readonly TargetSpec[], opts: { rest?: boolean } = {}): void {
  const errors = targetErrors(targets, opts);
  if (errors[0]) throw new TradeValidationError('targets', errors[0]);
}

/**
 * A profit profile's partial targets → RR targets, ranked by R multiple. An empty or missing list
 * gives the 30/30/40 % fallback. size_pct must sum to 100 (within the share tolerance).
 */
export function targetsFromProfile(partials: readonly PartialTarget[] | null | undefined): TargetSpec[] {
  if (!partials || partials.length === 0) return PROFILE_FALLBACK_TARGETS.map((t) => ({ ...t }));
  const targets = [...partials]
    .sort((a, b) => a.r_multiple - b.r_multiple)
    .map((p, i): TargetSpec => ({ rank: i + 1, share: p.size_pct / 100, tp_type: 'RR', rr: p.r_multiple }));
  assertTargets(targets);
  return targets;
}

export interface ResolvedTarget {
  rank: number;
  share: number;
  tp_type: TargetType;
  /** Target price, rounded to the symbol's digits. */
  price: number;
  /** |price − entry| in price units. */
  distance: number;
  /** Distance in R (distance ÷ SL distance), 2 decimals. */
  r_multiple: number;
  /** Lots closed at this target; 0 when the share is too small for one volume step. */
  volume: number;
}

/**
 * Split a volume by shares: each share floored to the step; when the shares sum to 1 the remainder
 * goes to the last one, when they sum to less it stays open (the rest). With `volumeMin`, a part
 * below the symbol's minimum volume (a broker refuses to close it) merges into the next part (a last
 * part so merged stays in the rest). Counting in whole steps keeps the sum exact. `volume` must be a
 * multiple of `volumeStep`.
 */
export function splitVolume(
  volume: number,
  shares: readonly number[],
  volumeStep: number,
  volumeMin = 0,
): number[] {
  const exactSteps = volume / volumeStep;
  const totalSteps = Math.round(exactSteps);
  if (Math.abs(exactSteps - totalSteps) > 1e-6 || totalSteps < 0) {
    throw new TradeValidationError(
      'targets',
      `Volume ${volume} is not a multiple of the volume step ${volumeStep}.`,
    );
  }
  const decimals = stepDecimals(volumeStep);
  const minSteps = volumeMin / volumeStep - 1e-6;
  const whole = Math.abs(shares.reduce((a, b) => a + b, 0) - 1) <= SHARE_TOLERANCE;
  const steps: number[] = [];
  let used = 0;
  let carried = 0;
  shares.forEach((share, i) => {
    let s: number;
    if (whole && i === shares.length - 1) s = totalSteps - used;
    else s = Math.max(0, Math.min(totalSteps - used, floorToStep(share * totalSteps, 1) + carried));
    carried = 0;
    // The last part of a whole split is the final take profit: it closes whatever is left.
    if (s > 0 && s < minSteps && !(whole && i === shares.length - 1)) {
      carried = s;
      s = 0;
    }
    steps.push(s);
    used += s;
  });
  return steps.map((s) => roundToDigits(s * volumeStep, decimals));
}

/**
 * The step target volumes are split on: the 2-decimal lot grid the volume was sized on when it fits,
 * so target volumes keep 2 decimals too; a forced odd minimum volume falls back to the symbol's step.
 */
export function targetVolumeStep(volume: number, symbolStep: number): number {
  const lotGrid = Math.max(symbolStep, 0.01);
  return floorVolume(volume, lotGrid) === volume ? lotGrid : symbolStep;
}

/**
 * Resolve each target to a price and a volume.
 * @param ctx side, entry, pip size and digits of the trade
 * @param slDistance the resolved stop-loss distance in price units (one R)
 * @param atr the ATR in price units; required only by ATR targets
 * @param volume the position's lots (a multiple of volumeStep)
 * @param volumeMin the symbol's minimum volume: smaller parts merge into the next (splitVolume)
 * @param rest the shares may sum to less than 1, the rest of the volume staying open
 * @throws TradeValidationError for an invalid plan, a missing ATR, or a PRICE target on the wrong side
 */
export function resolveTargets(args: {
  targets: readonly TargetSpec[];
  ctx: PriceContext;
  slDistance: number;
  atr?: number | null;
  volume: number;
  volumeStep: number;
  volumeMin?: number;
  rest?: boolean;
}): ResolvedTarget[] {
  const { ctx, slDistance } = args;
  assertTargets(args.targets, { rest: args.rest === true });
  const ordered = [...args.targets].sort((a, b) => a.rank - b.rank);
  const volumes = splitVolume(
    args.volume,
    ordered.map((t) => t.share),
    args.volumeStep,
    args.volumeMin ?? 0,
  );
  return ordered.map((t, i) => {
    let mode: TakeProfitMode;
    if (t.tp_type === 'RR') {
      mode = { mode: 'rr_ratio', rr: t.rr ?? 0 };
    } else if (t.tp_type === 'ATR') {
      if (!positive(args.atr)) {
        throw new TradeValidationError(
          'targets',
          `Target ${t.rank} is ATR-based but no ATR value is available.`,
        );
      }
      mode = { mode: 'atr', atr: args.atr, multiplier: t.atr_multiplier };
    } else {
      mode = { mode: 'price', price: t.price ?? 0 };
    }
    let tp;
    try {
      tp = resolveTakeProfit(mode, ctx, slDistance);
    } catch (e) {
      if (e instanceof TradeValidationError)
        throw new TradeValidationError('targets', `Target ${t.rank}: ${e.message}`);
      throw e;
    }
    return {
      rank: t.rank,
      share: t.share,
      tp_type: t.tp_type,
      price: tp.price,
      distance: tp.distance,
      r_multiple: tp.rr,
      volume: volumes[i] ?? 0,
    };
  });
}
