/**
 * `slippage_ms` as latency (issue 11): a market order fills at the price `slippageMs` after the next
 * bar's open: exact when the bars carry that price (`latencyBid`, SIM data), interpolated between the
 * bar's open and close when they do not (imported bars).
 */
import { describe, expect, it } from 'vitest';
import { createBacktestEngine } from './engine';
import { ORDER_FIELDS, ORDER_SIDE, type BacktestBars, type BacktestSettings } from './types';

const H = 3_600_000;
// prettier-ignore
const rows = [
  [1.1000, 1.1010, 1.0990, 1.1000],
  [1.1000, 1.1040, 1.0980, 1.1020],
  [1.1020, 1.1030, 1.1010, 1.1025],
  [1.1025, 1.1026, 1.1024, 1.1025],
];
const col = (k: number) => Float64Array.from(rows, (r) => r[k]!);
const imported: BacktestBars = {
  time: Float64Array.from(rows, (_r, i) => i * H),
  open: col(0),
  high: col(1),
  low: col(2),
  close: col(3),
};
/** The same bars with the exact bid 15 minutes after each open, as the SIM market priced it. */
const sim = (latencyBid: number[]): BacktestBars => ({
  ...imported,
  latencyBid: Float64Array.from(latencyBid),
});

const settings: BacktestSettings = {
  initialBalance: 10_000,
  accountCurrency: 'USD',
  riskPercent: 1,
  maxOpenPositions: 1,
  spread: 0.0002,
  commissionPerLot: 0,
  slippageMs: H / 4,
  slippageR: 0,
  barMs: H,
  leverage: 100,
};
const symbol = {
  contractSize: 100_000,
  digits: 5,
  volumeMin: 0.01,
  volumeStep: 0.01,
  volumeMax: 100,
  quoteToAccountRate: 1,
};

/** Buys on bar 0's close (stop far away), closes on bar 1's close; returns the one trade. */
function roundTrip(bars: BacktestBars, side: 1 | -1 = 1) {
  const e = createBacktestEngine(bars, symbol, settings);
  const o = new Float64Array(ORDER_FIELDS).fill(NaN);
  o[0] = side === 1 ? ORDER_SIDE.buy : ORDER_SIDE.sell;
  o[1] = 0;
  o[3] = side === 1 ? 1.05 : 1.15;
  e.bar(0);
  e.submit(0, o);
  e.bar(1);
  const close = new Float64Array(ORDER_FIELDS).fill(NaN);
  close[0] = ORDER_SIDE.close;
  e.submit(1, close);
  e.bar(2);
  e.bar(3);
  return e.finish().trades[0]!;
}

describe('slippage_ms: exact fills on SIM bars, interpolated on imported bars', () => {
  it('imported bars: 15 min into bar 1 (1.1000 → 1.1020) is 1.1005; the close 15 min into bar 2 is 1.102125', () => {
    const t = roundTrip(imported);
    expect(t.entryIndex).toBe(1);
    // A buy pays the ask: bid + spread 0.0002.
    expect(t.entryPrice).toBeCloseTo(1.1005 + 0.0002, 12);
    expect(t.exitIndex).toBe(2);
    expect(t.exitPrice).toBeCloseTo(1.102 + (1.1025 - 1.102) / 4, 12);
  });

  it('SIM bars: the exact bid of each bar is used, though the path went elsewhere than a straight line', () => {
    const t = roundTrip(sim([1.1001, 1.1031, 1.1012, 1.1025]));
    expect(t.entryPrice).toBeCloseTo(1.1031 + 0.0002, 12);
    expect(t.exitPrice).toBe(1.1012);
    // A sell fills at the bid, and its close buys back at the ask.
    const short = roundTrip(sim([1.1001, 1.1031, 1.1012, 1.1025]), -1);
    expect(short.entryPrice).toBe(1.1031);
    expect(short.exitPrice).toBeCloseTo(1.1012 + 0.0002, 12);
  });

  it('a bar the source could not price (NaN) falls back to the interpolation', () => {
    const t = roundTrip(sim([NaN, NaN, NaN, NaN]));
    expect(t.entryPrice).toBeCloseTo(1.1005 + 0.0002, 12);
    expect(t.exitPrice).toBeCloseTo(1.102125, 12);
  });

  it('limit, stop and SL/TP fills do not use the latency price', () => {
    const e = createBacktestEngine(sim([1.09, 1.09, 1.09, 1.09]), symbol, { ...settings, spread: 0 });
    const o = new Float64Array(ORDER_FIELDS).fill(NaN);
    o[0] = ORDER_SIDE.buy;
    o[1] = 1; // limit
    o[2] = 1.099;
    o[3] = 1.095;
    e.bar(0);
    e.submit(0, o);
    for (let i = 1; i < rows.length; i++) e.bar(i);
    expect(e.finish().trades[0]).toMatchObject({ entryIndex: 1, entryPrice: 1.099 });
  });
});
