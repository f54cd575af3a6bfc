/**
 * Multi-target entries, worked by hand (docs/backtests.md, "Targets"): daily EURUSD bid bars, spread
 * 0.0002, risk 1 % of 10,000 USD, commission 5 per lot per side. Every long below is decided on
 * bar 0 with its stop at 1.0952 and fills at bar 1's ask open 1.1002: one R = 0.0050, lots =
 * 100 ÷ (0.0050 × 100,000) = 0.20, money at the stop = 100.
 */
import { describe, expect, it } from 'vitest';
import { createBacktestEngine } from './engine';
import { StrategyOrderError } from './order-targets';
import { backtestSignals } from './signals';
import { computeBacktestStats } from './stats';
import {
  ORDER_FIELDS,
  TARGET_KIND,
  type BacktestBars,
  type BacktestSettings,
  type BacktestSymbol,
} from './types';

const DAY = 86_400_000;
// prettier-ignore
const rows = [
  // open,  high,   low,    close   (bid)
  [1.1000, 1.1010, 1.0990, 1.1000],
  [1.1000, 1.1030, 1.0995, 1.1020], // entry bar: no level inside
  [1.1020, 1.1060, 1.1010, 1.1050], // 1 R = 1.1052 reached
  [1.1050, 1.1090, 1.1040, 1.1080], // 1.5 R = 1.1077 reached
  [1.1080, 1.1110, 1.1070, 1.1100], // 2 R = 1.1102 reached
  [1.1100, 1.1105, 1.0990, 1.1000],
  [1.1000, 1.1000, 1.0940, 1.0950], // the stop 1.0952 is hit
  [1.0950, 1.0960, 1.0940, 1.0955],
];
const n = rows.length;
const col = (k: number) => Float64Array.from(rows, (r) => r[k]!);
const bars: BacktestBars = {
  time: Float64Array.from(rows, (_r, i) => Date.UTC(2024, 0, 1) + i * DAY),
  open: col(0),
  high: col(1),
  low: col(2),
  close: col(3),
};
const symbol: BacktestSymbol = {
  contractSize: 100_000,
  digits: 5,
  volumeMin: 0.01,
  volumeStep: 0.01,
  volumeMax: 100,
  quoteToAccountRate: 1,
};
const settings: BacktestSettings = {
  initialBalance: 10_000,
  accountCurrency: 'USD',
  riskPercent: 1,
  maxOpenPositions: 1,
  spread: 0.0002,
  commissionPerLot: 5,
  slippageMs: 0,
  slippageR: 0,
  barMs: DAY,
  leverage: 100,
};

const BUY = Float64Array.from([1, 0, NaN, 1.0952, NaN, NaN, NaN, NaN]);
/** The orders' side list for one order: its count, then (kind, value, share) each. */
const targets = (...list: Array<[number, number, number]>) =>
  Float64Array.from([list.length, ...list.flatMap(([k, v, s]) => [k, v, s])]);
const R = TARGET_KIND.r;

/** Submits `order` with `side` at bar 0, runs every bar and calls `at(i)` after each. */
function run(
  side: Float64Array | null,
  opts: { sym?: Partial<BacktestSymbol>; order?: Float64Array; at?: (i: number, e: Engine) => void } = {},
) {
  const e = createBacktestEngine(bars, { ...symbol, ...opts.sym }, settings);
  for (let i = 0; i < n; i++) {
    e.bar(i);
    if (i === 0) e.submit(0, opts.order ?? BUY, side);
    opts.at?.(i, e);
  }
  return e.finish();
}
type Engine = ReturnType<typeof createBacktestEngine>;

describe('targets in the backtest engine', () => {
  it('two targets at 1 R and 2 R, half each: two parts, one trade; equity and the position follow each part', () => {
    const volumes: number[] = [];
    const result = run(targets([R, 1, 0.5], [R, 2, 0.5]), {
      at: (_i, e) => volumes.push(e.position()?.volume ?? 0),
    });
    // Bar 2 reaches 1 R = 1.1052: 0.10 lots close there. Gross (1.1052 − 1.1002) × 0.10 × 100,000 = 50;
    // commission 0.50 to exit plus 0.50 of the entry's 1.00 → P/L 49, R 0.49.
    // Bar 4 reaches 2 R = 1.1102 (the last target: the take profit of the rest): gross 100, commission
    // 0.50 + the entry's remaining 0.50 → P/L 99, R 0.99. The trade: 148, commission 2, R 1.48.
    expect(result.trades).toHaveLength(1);
    const [t] = result.trades;
    expect(t).toMatchObject({
      side: 'buy',
      entryIndex: 1,
      volume: 0.2,
      exitIndex: 4,
      pnl: 148,
      commission: 2,
      exitReason: 'tp',
    });
    expect(t!.r).toBeCloseTo(1.48, 10);
    expect(t!.exitPrice).toBeCloseTo(1.1102, 10);
    expect(t!.parts!.map((p) => [p.exitIndex, p.volume, p.pnl, p.commission, p.exitReason])).toEqual([
      [2, 0.1, 49, 1, 'tp'],
      [4, 0.1, 99, 1, 'tp'],
    ]);
    expect(t!.parts![0]!.exitPrice).toBeCloseTo(1.1052, 10);
    expect(t!.parts![0]!.r).toBeCloseTo(0.49, 10);
    expect(t!.parts![1]!.r).toBeCloseTo(0.99, 10);
    // Equity at each close: bar 1 9,999 (entry commission 1) + 36 − 1 (exit commission) = 10,034;
    // bar 2 balance 9,999 + 50 − 0.50 = 10,048.50, plus the 0.10 left at 1.1050: 48 − 0.50 → 10,096;
    // bar 3 at 1.1080: 10,048.50 + 78 − 0.50 = 10,126; bar 4 all closed: 10,048.50 + 100 − 0.50 = 10,148.
    expect([...result.equity].map((x) => Math.round(x * 100) / 100)).toEqual([
      10_000, 10_034, 10_096, 10_126, 10_148, 10_148, 10_148, 10_148,
    ]);
    // What ctx.position shows after each bar: 0.20, then the 0.10 left after the first target.
    expect(volumes).toEqual([0, 0.2, 0.1, 0.1, 0, 0, 0, 0]);

    const stats = computeBacktestStats({ ...bars, ...result, initialBalance: 10_000 });
    expect(stats).toMatchObject({ trades: 1, win_rate_pct: 100, commissions_paid: 2, best_trade: 148 });
    expect(stats.expectancy_r).toBeCloseTo(1.48, 8);
  });

  it('shares below 1 leave a rest without a target: it runs to the stop', () => {
    const result = run(targets([R, 1, 0.5]));
    // Bar 2: 0.10 at 1.1052, P/L 49 as above. Bars 3 and 4 pass 2 R with no target left. Bar 6's low
    // 1.0940 crosses the stop (open 1.1000 above it): the 0.10 left closes at 1.0952: gross −50,
    // commission 0.50 + 0.50 → −51, R −0.51. The trade: −2, R −0.02, closed by the stop.
    const [t] = result.trades;
    expect(result.trades).toHaveLength(1);
    expect(t).toMatchObject({ volume: 0.2, exitIndex: 6, pnl: -2, commission: 2, exitReason: 'sl' });
    expect(Number.isNaN(t!.tp)).toBe(true);
    expect(t!.r).toBeCloseTo(-0.02, 10);
    expect(t!.parts!.map((p) => [p.exitIndex, p.volume, p.pnl, p.exitReason])).toEqual([
      [2, 0.1, 49, 'tp'],
      [6, 0.1, -51, 'sl'],
    ]);
    expect(result.equity[n - 1]).toBe(9_998);
  });

  it('a part below the minimum volume merges into the next (vectorised signals, one target list for every entry)', () => {
    const flag = new Uint8Array(n);
    flag[0] = 1;
    const sl = new Float64Array(n).fill(NaN);
    sl[0] = 1.0952;
    const result = backtestSignals(bars, { ...symbol, volumeMin: 0.1 }, settings, {
      entries: flag,
      sl,
      targets: { index: null, packed: targets([R, 1, 0.3], [R, 1.5, 0.3], [R, 2, 0.4]) },
    });
    // 0.20 lots at 30/30/40 %: 0.06 is below the 0.1 minimum and merges into the second, 0.06 + 0.06
    // = 0.12; the last (the take profit) closes the 0.08 left. Bar 2 reaches 1 R but closes nothing;
    // bar 3 reaches 1.5 R = 1.1077: 0.12 × 0.0075 × 100,000 = 90, commission 0.60 + 0.60 → 88.80.
    // Bar 4 reaches 2 R: 0.08 × 0.0100 × 100,000 = 80, commission 0.40 + 0.40 → 79.20. Trade 168.
    const [t] = result.trades;
    expect(t!.parts!.map((p) => [p.exitIndex, p.volume, p.pnl, p.commission])).toEqual([
      [3, 0.12, 88.8, 1.2],
      [4, 0.08, 79.2, 0.8],
    ]);
    expect(t).toMatchObject({ volume: 0.2, pnl: 168, commission: 2 });
    expect(t!.r).toBeCloseTo(1.68, 10);
  });

  it('a bar that opens beyond a target fills it at the open; set_target moves the take profit of the rest', () => {
    const volumes: number[] = [];
    const result = run(targets([R, 0.5, 0.5], [R, 3, 0.5]), {
      at: (i, e) => {
        volumes.push(e.position()?.volume ?? 0);
        // After bar 2 the strategy moves the target of what is left to 1.1085 (set_target).
        if (i === 2) e.submit(2, Float64Array.from([3, 0, NaN, NaN, 1.1085, NaN, NaN, NaN]));
      },
    });
    // 0.5 R = 1.1027: bar 1 (the entry bar) reaches 1.1030 → taken at the level, flagged: 0.10 × 0.0025
    // × 100,000 = 25 − 1 = 24. The rest's take profit 3 R = 1.1152 is moved to 1.1085 after bar 2;
    // bar 3 reaches it (high 1.1090): 0.10 × 0.0083 × 100,000 = 83 − 1 = 82.
    const [t] = result.trades;
    expect(t!.entryBarExit).toBe(true);
    expect(result.warnings.entryBarExits).toBe(1);
    expect(t!.parts!.map((p) => [p.exitIndex, p.volume, p.pnl])).toEqual([
      [1, 0.1, 24],
      [3, 0.1, 82],
    ]);
    expect(t!.pnl).toBe(106);
    expect(volumes.slice(0, 4)).toEqual([0, 0.1, 0.1, 0]);

    // A gap: bars where the first target, 1 R = 1.1052, is not reached until bar 2 opens at 1.1060.
    const gap: BacktestBars = {
      time: bars.time.slice(0, 3),
      open: Float64Array.from([1.1, 1.1, 1.106]),
      high: Float64Array.from([1.101, 1.101, 1.107]),
      low: Float64Array.from([1.099, 1.0995, 1.1055]),
      close: Float64Array.from([1.1, 1.1005, 1.1065]),
    };
    const e = createBacktestEngine(gap, symbol, settings);
    for (let i = 0; i < 3; i++) {
      e.bar(i);
      if (i === 0) e.submit(0, BUY, targets([R, 1, 0.5], [R, 2, 0.5]));
    }
    // The first half fills at the open 1.1060: 0.10 × 0.0058 × 100,000 = 58 − 1 = 57; the rest is
    // closed at the last close 1.1065 (the end): 63 − 1 = 62.
    const g = e.finish().trades[0]!;
    expect(g.parts!.map((p) => [p.exitIndex, p.pnl, p.exitReason])).toEqual([
      [2, 57, 'tp'],
      [2, 62, 'end'],
    ]);
    expect(g.parts![0]!.exitPrice).toBe(1.106);
    expect(g).toMatchObject({ pnl: 119, exitReason: 'end', exitPrice: 1.1065 });
  });

  it('refuses targets with tp or tp_r, out of order, on the wrong side, or above the whole position', () => {
    const withTpR = BUY.slice();
    withTpR[5] = 2;
    expect(() => run(targets([R, 1, 0.5]), { order: withTpR })).toThrow(
      new StrategyOrderError('buy() and sell() take targets or tp / tp_r, not both.'),
    );
    expect(() => run(targets([R, 2, 0.5], [R, 1, 0.5]))).toThrow(
      /^The targets cannot be used: target 2 at 1\.1052\d* is not beyond target 1 at 1\.1102\d*: give targets nearest first\.$/,
    );
    expect(() => run(targets([TARGET_KIND.price, 1.09, 1]))).toThrow(
      'The targets cannot be used: target 1 at 1.09 is on the wrong side of the entry price',
    );
    expect(() => run(targets([R, 1, 0.6], [R, 2, 0.6]))).toThrow(
      'The targets cannot be used: the target shares sum to 1.2, more than the whole position (1).',
    );
    expect(() => run(Float64Array.from([11]))).toThrow(
      'The strategy returned targets the engine cannot read.',
    );
    expect(ORDER_FIELDS).toBe(8);
  });
});
