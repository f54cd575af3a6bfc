import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeTradeStats, downsample, type ClosedTradeForStats } from './trade-stats';

const t = (pnl: number, risk: number | null, day: number): ClosedTradeForStats => ({
  pnl_minor: pnl,
  initial_risk_minor: risk,
  closed_at: `2026-01-${String(day).padStart(2, '0')}T12:00:00.000Z`,
});

describe('trade statistics', () => {
  // +200, -100, +300, -100, 0 (cents), each risking 100:
  // wins 2, losses 2, breakeven 1; gross profit 500, gross loss 200, net 300.
  const five = [
    t(20000, 10000, 1),
    t(-10000, 10000, 2),
    t(30000, 10000, 3),
    t(-10000, 10000, 4),
    t(0, 10000, 5),
  ];

  it('five trades +200 -100 +300 -100 0: win rate 2/5 = 0.4, profit factor 500/200 = 2.5, net +300', () => {
    const s = computeTradeStats(five);
    expect(s).toMatchObject({ trades: 5, wins: 2, losses: 2, breakeven: 1, net_minor: 30000 });
    expect(s.win_rate).toBe(0.4);
    expect(s.profit_factor).toBe(2.5);
    expect(s.gross_profit_minor).toBe(50000);
    expect(s.gross_loss_minor).toBe(20000);
  });

  it('averages: win (200+300)/2 = 250, loss -(100+100)/2 = -100, expectancy 300/5 = 60 per trade', () => {
    const s = computeTradeStats(five);
    expect(s.avg_win_minor).toBe(25000);
    expect(s.avg_loss_minor).toBe(-10000);
    expect(s.expectancy_minor).toBe(6000);
  });

  it('expectancy in R: (2 - 1 + 3 - 1 + 0)/5 = 0.6R; best +300, worst -100', () => {
    const s = computeTradeStats(five);
    expect(s.expectancy_r).toBeCloseTo(0.6, 12);
    expect(s.r_trades).toBe(5);
    expect(s.best_minor).toBe(30000);
    expect(s.worst_minor).toBe(-10000);
  });

  it('R only over trades with a known risk: +150 on 50 risk (3R) and -80 unknown -> 3R over 1 trade', () => {
    const s = computeTradeStats([t(15000, 5000, 1), t(-8000, null, 2)]);
    expect(s.expectancy_r).toBe(3);
    expect(s.r_trades).toBe(1);
    expect(s.expectancy_minor).toBe(3500);
  });

  it('drawdown from a 10,000 start: 10,200 peak then 10,100 -> 100 (0.98%), then 10,400 peak and 10,300 -> 100 again', () => {
    const s = computeTradeStats(five, { starting_balance_minor: 1_000_000 });
    expect(s.equity_curve.map((p) => p.equity_minor)).toEqual([
      1_020_000, 1_010_000, 1_040_000, 1_030_000, 1_030_000,
    ]);
    expect(s.max_drawdown_minor).toBe(10000);
    expect(s.max_drawdown_pct).toBeCloseTo(10000 / 1_020_000, 12);
  });

  it('drawdown counts a fall below the start: -50, -70, +30 from 0 -> 120', () => {
    const s = computeTradeStats([t(-5000, null, 1), t(-7000, null, 2), t(3000, null, 3)]);
    expect(s.max_drawdown_minor).toBe(12000);
    expect(s.max_drawdown_pct).toBeNull();
    expect(s.profit_factor).toBe(3000 / 12000);
  });

  it('no trades: nothing to divide, every ratio null', () => {
    const s = computeTradeStats([]);
    expect(s).toMatchObject({
      trades: 0,
      win_rate: null,
      profit_factor: null,
      expectancy_minor: null,
      expectancy_r: null,
    });
    expect(s.equity_curve).toEqual([]);
  });

  it('only winners: profit factor undefined (null), not Infinity', () => {
    expect(computeTradeStats([t(100, 100, 1)]).profit_factor).toBeNull();
  });

  it('sums money exactly in integers: 100,000 trades of +0.01 make exactly +1,000.00', () => {
    const many = Array.from({ length: 100_000 }, (_, i) => t(1, null, (i % 28) + 1));
    expect(computeTradeStats(many).net_minor).toBe(100_000);
  });

  it('properties: wins+losses+breakeven = trades; net = gross profit - gross loss; drawdown >= 0', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { maxLength: 200 }), (pnls) => {
        const s = computeTradeStats(pnls.map((p, i) => t(p, 1000, (i % 28) + 1)));
        expect(s.wins + s.losses + s.breakeven).toBe(pnls.length);
        expect(s.net_minor).toBe(s.gross_profit_minor - s.gross_loss_minor);
        expect(s.net_minor).toBe(pnls.reduce((a, b) => a + b, 0));
        expect(s.max_drawdown_minor).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});

describe('equity curve downsampling', () => {
  it('keeps short curves whole and long ones within the limit, with their lowest point and the last', () => {
    const curve = Array.from({ length: 10_000 }, (_, i) => ({
      time: String(i),
      equity_minor: i === 4321 ? -999_999 : Math.round(Math.sin(i / 50) * 1000),
    }));
    expect(downsample(curve.slice(0, 10), 100)).toHaveLength(10);
    const d = downsample(curve, 500);
    expect(d.length).toBeLessThanOrEqual(501);
    expect(d.some((p) => p.equity_minor === -999_999)).toBe(true);
    expect(d.at(-1)).toBe(curve.at(-1));
    // Time order is preserved.
    expect(d.map((p) => Number(p.time))).toEqual([...d.map((p) => Number(p.time))].sort((a, b) => a - b));
  });
});
