/**
 * The vectorised strategy style: per-bar arrays from `signals(data, params)` drive the engine.
 * At bar i (decided on its close, acted on from bar i+1): an exit closes the positions of that side,
 * then an entry opens one with that bar's sl / tp / tp_r, or its targets.
 */
import { createBacktestEngine } from './engine';
import {
  ORDER_FIELDS,
  ORDER_SIDE,
  TARGET_FIELDS,
  type BacktestBars,
  type BacktestResult,
  type BacktestSettings,
  type BacktestSymbol,
} from './types';

/** Flags: one value a bar, true where non-zero (NaN counts as false), as bytes or as a 0/1 series. */
type Flags = Uint8Array | Float64Array;

export interface SignalArrays {
  entries?: Flags | null;
  exits?: Flags | null;
  short_entries?: Flags | null;
  short_exits?: Flags | null;
  sl?: Float64Array | null;
  tp?: Float64Array | null;
  tp_r?: Float64Array | null;
  targets?: SignalTargets | null;
}

/**
 * Targets of the entries: `packed` holds one target list per entry of `index` (bar indices), each as
 * the orders' side list writes it (its count, then TARGET_FIELDS numbers a target); `index` null: one
 * list for every entry.
 */
export interface SignalTargets {
  index: Float64Array | null;
  packed: Float64Array;
}

/** Bar index → that bar's target list (a view into `packed`), read once; entries only look it up. */
function targetsByBar(t: SignalTargets | null | undefined): ((i: number) => Float64Array | null) | null {
  if (!t) return null;
  const { index, packed } = t;
  if (!index) return () => packed;
  const lists = new Map<number, Float64Array>();
  let at = 0;
  for (let j = 0; j < index.length && at < packed.length; j++) {
    const end = at + 1 + Math.max(0, packed[at]!) * TARGET_FIELDS;
    lists.set(index[j]!, packed.subarray(at, end));
    at = end;
  }
  return (i) => lists.get(i) ?? null;
}

export function backtestSignals(
  bars: BacktestBars,
  symbol: BacktestSymbol,
  settings: BacktestSettings,
  s: SignalArrays,
  onProgress?: (fraction: number) => void,
): BacktestResult {
  const engine = createBacktestEngine(bars, symbol, settings);
  const n = bars.close.length;
  const order = new Float64Array(ORDER_FIELDS);
  const none: Flags = new Uint8Array(0);
  const [entries, exits, shortEntries, shortExits] = [
    s.entries ?? none,
    s.exits ?? none,
    s.short_entries ?? none,
    s.short_exits ?? none,
  ];
  const targetsAt = targetsByBar(s.targets);
  const put = (side: number, i: number) => {
    order.fill(NaN);
    order[0] = side;
    order[1] = 0;
    if (side !== ORDER_SIDE.close) {
      order[3] = s.sl?.[i] ?? NaN;
      order[4] = s.tp?.[i] ?? NaN;
      order[5] = s.tp_r?.[i] ?? NaN;
    }
    engine.submit(i, order, side === ORDER_SIDE.close ? null : targetsAt?.(i));
  };
  for (let i = 0; i < n; i++) {
    engine.bar(i);
    const pos = engine.position();
    if ((exits[i] && pos?.dir === 1) || (shortExits[i] && pos?.dir === -1)) put(ORDER_SIDE.close, i);
    if (entries[i]) put(ORDER_SIDE.buy, i);
    else if (shortEntries[i]) put(ORDER_SIDE.sell, i);
    if (onProgress && (i & 0xffff) === 0) onProgress(i / n);
  }
  return engine.finish();
}
