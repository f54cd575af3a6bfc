/**
 * The vectorised strategy style: per-bar arrays from `signals(data, params)` drive the engine.
 * At bar i (decided on its close, acted on from bar i+1): an exit closes the positions of that side,
 * then an entry opens one with that bar's sl / tp / tp_r.
 */
import { createBacktestEngine } from './engine';
import {
  ORDER_FIELDS,
  ORDER_SIDE,
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
  const put = (side: number, i: number) => {
    order.fill(NaN);
    order[0] = side;
    order[1] = 0;
    if (side !== ORDER_SIDE.close) {
      order[3] = s.sl?.[i] ?? NaN;
      order[4] = s.tp?.[i] ?? NaN;
      order[5] = s.tp_r?.[i] ?? NaN;
    }
    engine.submit(i, order);
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
