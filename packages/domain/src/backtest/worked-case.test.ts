/**
 * A hand-made price series and strategy whose trades and statistics are worked out by hand below
 * (docs/backtests.md walks through the same case).
 */
import { describe, expect, it } from 'vitest';
import { backtestSignals } from './signals';
import { computeBacktestStats } from './stats';
import type { BacktestBars, BacktestSettings, BacktestSymbol } from './types';

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);
// prettier-ignore
const rows = [
  // open,  high,   low,    close   (bid)
  [1.1000, 1.1010, 1.0990, 1.1000],
  [1.1000, 1.1050, 1.0995, 1.1040],
  [1.1040, 1.1100, 1.1030, 1.1090],
  [1.1090, 1.1095, 1.1000, 1.1010],
  [1.1010, 1.1020, 1.0900, 1.0950],
  [1.0950, 1.0960, 1.0940, 1.0955],
  [1.0955, 1.0970, 1.0950, 1.0960],
  [1.0960, 1.0965, 1.0955, 1.0960],
];
const col = (k: number) => Float64Array.from(rows, (r) => r[k]!);
const bars: BacktestBars = {
  time: Float64Array.from(rows, (_r, i) => T0 + i * DAY),
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
const n = rows.length;
const at = (i: number, v: number, fill = NaN) => {
  const a = new Float64Array(n).fill(fill);
  a[i] = v;
  return a;
};
const flag = (i: number) => {
  const a = new Uint8Array(n);
  a[i] = 1;
  return a;
};
// Long decided on bar 0 (SL 1.0952, TP 2 R); short decided on bar 4 (SL 1.0990, TP 1.0945).
const signals = {
  entries: flag(0),
  short_entries: flag(4),
  sl: (() => {
    const a = at(0, 1.0952);
    a[4] = 1.099;
    return a;
  })(),
  tp: at(4, 1.0945),
  tp_r: at(0, 2),
};

describe('backtest worked case', () => {
  const result = backtestSignals(bars, symbol, settings, signals);

  it('fills, sizes and exits the two trades as worked by hand', () => {
    // Trade 1: buy at bar 1's ask open 1.1000 + 0.0002 = 1.1002; SL distance 0.0050;
    // lots = 10,000 × 1 % ÷ (0.0050 × 100,000) = 0.20; TP = 1.1002 + 2 × 0.0050 = 1.1102 (never reached);
    // bar 4's low 1.0900 ≤ 1.0952 with the open above it: exit at 1.0952.
    // P/L = (1.0952 − 1.1002) × 0.20 × 100,000 = −100, commission 2 × 0.20 × 5 = 2 → −102; R = −102 ÷ 100.
    const [t1, t2] = result.trades;
    expect(t1).toMatchObject({
      side: 'buy',
      entryIndex: 1,
      volume: 0.2,
      exitIndex: 4,
      exitReason: 'sl',
      commission: 2,
      pnl: -102,
    });
    expect(t1!.entryPrice).toBeCloseTo(1.1002, 10);
    expect(t1!.tp).toBeCloseTo(1.1102, 10);
    expect(t1!.exitPrice).toBeCloseTo(1.0952, 10);
    expect(t1!.r).toBeCloseTo(-1.02, 10);
    // Trade 2: sell at bar 5's bid open 1.0950; equity 9,898; lots = floor(98.98 ÷ (0.0040 × 100,000)) = 0.24;
    // bar 5's ask low 1.0942 ≤ TP 1.0945 on the entry bar: exit at 1.0945, flagged.
    // P/L = (1.0950 − 1.0945) × 0.24 × 100,000 = 12, commission 2.4 → 9.6; risk 96 → R = 0.1.
    expect(t2).toMatchObject({
      side: 'sell',
      entryIndex: 5,
      volume: 0.24,
      exitIndex: 5,
      exitReason: 'tp',
      entryBarExit: true,
      commission: 2.4,
      pnl: 9.6,
    });
    expect(t2!.r).toBeCloseTo(0.1, 10);
    expect(result.warnings.entryBarExits).toBe(1);
  });

  it('marks equity to market at each close (bid for a long, minus the exit commission)', () => {
    // Balance after entry commission 9,999; bar 1: 9,999 + (1.1040 − 1.1002) × 20,000 − 1 = 10,074 …
    const expected = [10_000, 10_074, 10_174, 10_014, 9_898, 9_907.6, 9_907.6, 9_907.6];
    expected.forEach((e, i) => expect(result.equity[i]).toBeCloseTo(e, 6));
  });

  it('computes every statistic as worked by hand', () => {
    const s = computeBacktestStats({
      ...bars,
      equity: result.equity,
      exposed: result.exposed,
      trades: result.trades,
      initialBalance: 10_000,
    });
    const eq = [10_000, 10_074, 10_174, 10_014, 9_898, 9_907.6, 9_907.6, 9_907.6];
    const rets = eq.map((e, i) => e / (i === 0 ? 10_000 : eq[i - 1]!) - 1);
    const mu = rets.reduce((a, b) => a + b, 0) / 8;
    const sd = Math.sqrt(rets.reduce((a, r) => a + (r - mu) ** 2, 0) / 7);
    const down = Math.sqrt(rets.reduce((a, r) => a + Math.min(r, 0) ** 2, 0) / 8);
    const years = 7 / 365.25;
    const cagr = (9_907.6 / 10_000) ** (1 / years) - 1;
    const maxDd = 1 - 9_898 / 10_174;
    expect(s).toMatchObject({
      start: '2024-01-01T00:00:00.000Z',
      end: '2024-01-08T00:00:00.000Z',
      duration_days: 7,
      exposure_pct: 37.5, // bars 1, 2, 3 of 8 close with a position open
      equity_final: 9_907.6,
      equity_peak: 10_174,
      net_profit: -92.4,
      trades: 2,
      win_rate_pct: 50,
      best_trade: 9.6,
      worst_trade: -102,
      avg_trade: -46.2,
      avg_win: 9.6,
      avg_loss: -102,
      expectancy: -46.2,
      max_consecutive_wins: 1,
      max_consecutive_losses: 1,
      avg_trade_duration_hours: 36, // 72 h and 0 h
      avg_winner_duration_hours: 0,
      avg_loser_duration_hours: 72,
      commissions_paid: 4.4,
      max_drawdown_duration_days: 5, // from the peak on bar 2 to the last bar, never regained
      avg_drawdown_duration_days: 5,
    });
    expect(s.return_pct).toBeCloseTo(-0.924, 8);
    expect(s.buy_and_hold_return_pct).toBeCloseTo((1.096 / 1.1 - 1) * 100, 7);
    expect(s.payoff_ratio).toBeCloseTo(9.6 / 102, 8);
    expect(s.profit_factor).toBeCloseTo(9.6 / 102, 8);
    expect(s.expectancy_r).toBeCloseTo(-0.46, 8);
    // SQN = √2 × mean(R) ÷ sd(R) = √2 × −0.46 ÷ (1.12 ÷ √2) = −0.92 ÷ 1.12
    expect(s.sqn).toBeCloseTo(-0.92 / 1.12, 7);
    // Kelly = W − (1 − W) ÷ payoff = 0.5 − 0.5 × 102 ÷ 9.6
    expect(s.kelly_criterion).toBeCloseTo(0.5 - (0.5 * 102) / 9.6, 7);
    expect(s.max_drawdown_pct).toBeCloseTo(maxDd * 100, 7);
    expect(s.avg_drawdown_pct).toBeCloseTo(maxDd * 100, 7);
    expect(s.cagr_pct).toBeCloseTo(cagr * 100, 6);
    expect(s.volatility_ann_pct).toBeCloseTo(sd * Math.sqrt(252) * 100, 6);
    expect(s.sharpe_ratio).toBeCloseTo((mu / sd) * Math.sqrt(252), 6);
    expect(s.sortino_ratio).toBeCloseTo((mu / down) * Math.sqrt(252), 6);
    expect(s.calmar_ratio).toBeCloseTo(cagr / maxDd, 6);
  });

  it('takes the stop first when SL and TP are both inside one bar, fills gaps at the open and slips stops by slippage_r', () => {
    // Long from bar 1 at 1.1002, SL 1.0996 (6 pips), TP 1.1040: bar 1 (low 1.0995, high 1.1050) holds both → SL first.
    const both = backtestSignals(
      bars,
      symbol,
      { ...settings, slippageR: 0.5 },
      { entries: flag(0), sl: at(0, 1.0996), tp: at(0, 1.104) },
    );
    expect(both.trades[0]).toMatchObject({ exitIndex: 1, exitReason: 'sl', entryBarExit: true });
    expect(both.trades[0]!.exitPrice).toBeCloseTo(1.0996 - 0.5 * 0.0006, 10);
    // A gap: long from bar 1 at the ask 1.0002 with SL 0.9980; bar 2 opens at 0.9900, below the stop → fill at the open.
    const g = (o: number, h: number, l: number, c: number) => [o, h, l, c];
    const gapRows = [g(1, 1.001, 0.999, 1), g(1, 1.001, 0.999, 1), g(0.99, 0.995, 0.985, 0.99)];
    const gc = (k: number) => Float64Array.from(gapRows, (r) => r[k]!);
    const gapBars = {
      time: Float64Array.from(gapRows, (_r, i) => T0 + i * DAY),
      open: gc(0),
      high: gc(1),
      low: gc(2),
      close: gc(3),
    };
    const one = (v: number) => Float64Array.of(v, NaN, NaN);
    const gap = backtestSignals(gapBars, symbol, settings, {
      entries: Uint8Array.of(1, 0, 0),
      sl: one(0.998),
    });
    expect(gap.trades[0]).toMatchObject({
      entryIndex: 1,
      exitIndex: 2,
      exitReason: 'sl',
      entryBarExit: false,
    });
    expect(gap.trades[0]!.exitPrice).toBeCloseTo(0.99, 10);
  });
});
