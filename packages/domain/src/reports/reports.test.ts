import { describe, expect, it } from 'vitest';
import { seriesFromBars } from '../candles/series-ops';
import {
  computeBreakdowns,
  computeCalendar,
  equityWithDrawdown,
  excursionReport,
  groupFigures,
  summariseExcursions,
  tradeExcursion,
  isoMs,
  journalDiscipline,
  rHistogram,
  streaks,
  type ExcursionTrade,
  type ReportTrade,
} from './index';

const trade = (p: Partial<ReportTrade> & Pick<ReportTrade, 'id' | 'opened_at' | 'closed_at' | 'pnl_minor'>) =>
  ({
    symbol: 'EURUSD',
    direction: 'BUY',
    initial_risk_minor: 100,
    trader: '',
    bot: false,
    strategy_tag: null,
    emotional_state: null,
    market_condition: null,
    journaled: false,
    with_snapshot: false,
    with_reason: false,
    ...p,
  }) as ReportTrade;

/** Five trades worked by hand; 2026-01-05 is a Monday. In closing order. */
const T: ReportTrade[] = [
  trade({
    id: 'A',
    opened_at: '2026-01-05T08:30:00Z',
    closed_at: '2026-01-05T08:40:00Z',
    pnl_minor: 200,
    strategy_tag: 'breakout',
    emotional_state: 'calm',
    market_condition: 'trending',
    trader: 'ann',
    journaled: true,
    with_snapshot: true,
    with_reason: true,
  }),
  trade({
    id: 'B',
    direction: 'SELL',
    opened_at: '2026-01-05T14:00:00Z',
    closed_at: '2026-01-05T17:00:00Z',
    pnl_minor: -100,
    strategy_tag: 'breakout',
    emotional_state: 'fearful',
    journaled: true,
    with_reason: true,
  }),
  trade({
    id: 'C',
    symbol: 'GBPUSD',
    opened_at: '2026-01-06T23:30:00Z',
    closed_at: '2026-01-07T01:00:00Z',
    pnl_minor: 50,
    initial_risk_minor: null,
  }),
  trade({
    id: 'D',
    symbol: 'GBPUSD',
    direction: 'SELL',
    opened_at: '2026-01-07T13:00:00Z',
    closed_at: '2026-01-09T13:00:00Z',
    pnl_minor: -300,
    initial_risk_minor: 200,
    strategy_tag: 'reversal',
    bot: true,
  }),
  trade({
    id: 'E',
    opened_at: '2026-01-12T09:00:00Z',
    closed_at: '2026-01-12T09:03:00Z',
    pnl_minor: 0,
    strategy_tag: 'breakout',
  }),
];

const pick = (rows: { key: string; net_minor: number; trades: number }[]) =>
  Object.fromEntries(rows.map((r) => [r.key, [r.trades, r.net_minor]]));

describe('report figures', () => {
  it('counts P/L, win rate, profit factor and expectancy in money and R', () => {
    const f = groupFigures(T.filter((t) => t.symbol === 'EURUSD'));
    expect(f).toMatchObject({
      trades: 3,
      wins: 1,
      losses: 1,
      net_minor: 100,
      gross_profit_minor: 200,
      gross_loss_minor: 100,
      profit_factor: 2,
      expectancy_minor: 33,
      r_trades: 3,
    });
    expect(f.win_rate).toBeCloseTo(1 / 3);
    expect(f.expectancy_r).toBeCloseTo(1 / 3);
    expect(groupFigures([])).toMatchObject({
      trades: 0,
      win_rate: null,
      expectancy_minor: null,
      profit_factor: null,
    });
  });
});

describe('breakdowns', () => {
  const b = computeBreakdowns(T);

  it('by instrument and direction', () => {
    expect(b.instrument.map((r) => r.key)).toEqual(['EURUSD', 'GBPUSD']);
    expect(b.instrument[1]).toMatchObject({
      trades: 2,
      net_minor: -250,
      expectancy_minor: -125,
      r_trades: 1,
    });
    expect(b.instrument[1]!.profit_factor).toBeCloseTo(50 / 300);
    expect(b.instrument[1]!.expectancy_r).toBeCloseTo(-1.5);
    expect(b.direction[0]).toMatchObject({
      key: 'Buy',
      trades: 3,
      net_minor: 250,
      profit_factor: null,
      expectancy_r: 1,
    });
    expect(b.direction[1]).toMatchObject({ key: 'Sell', trades: 2, net_minor: -400, profit_factor: 0 });
    expect(b.direction[1]!.expectancy_r).toBeCloseTo(-1.25);
  });

  it('by weekday and hour of entry in the trader time zone', () => {
    expect(pick(b.weekday)).toEqual({ Monday: [3, 100], Tuesday: [1, 50], Wednesday: [1, -300] });
    expect(b.hour.map((r) => r.key)).toEqual(['08:00', '09:00', '13:00', '14:00', '23:00']);
    const athens = computeBreakdowns(T, ['weekday', 'hour'], { timeZone: 'Europe/Athens' });
    expect(pick(athens.weekday)).toEqual({ Monday: [3, 100], Wednesday: [2, -250] });
    expect(athens.hour.map((r) => r.key)).toEqual(['01:00', '10:00', '11:00', '15:00', '16:00']);
  });

  it('by session (overlaps count in both) and holding time', () => {
    expect(pick(b.session)).toEqual({
      Sydney: [1, 50],
      Tokyo: [1, 200],
      London: [4, -200],
      'New York': [2, -400],
    });
    expect(b.session.map((r) => r.key)).toEqual(['Sydney', 'Tokyo', 'London', 'New York']);
    expect(b.holding_time.map((r) => [r.key, r.trades, r.net_minor])).toEqual([
      ['Under 5 min', 1, 0],
      ['5–30 min', 1, 200],
      ['30 min–2 h', 1, 50],
      ['2–24 h', 1, -100],
      ['1–7 days', 1, -300],
    ]);
  });

  it('by journal tags, trader and bot vs manual', () => {
    expect(b.strategy_tag.map((r) => [r.key, r.trades, r.net_minor])).toEqual([
      ['breakout', 3, 100],
      ['reversal', 1, -300],
      ['(none)', 1, 50],
    ]);
    expect(pick(b.emotional_state)).toEqual({ calm: [1, 200], fearful: [1, -100], '(none)': [3, -250] });
    expect(pick(b.market_condition)).toEqual({ trending: [1, 200], '(none)': [4, -350] });
    expect(pick(b.trader)).toEqual({ ann: [1, 200], '(none)': [4, -350] });
    expect(b.bot.map((r) => [r.key, r.trades, r.net_minor])).toEqual([
      ['Manual', 4, 150],
      ['Bot', 1, -300],
    ]);
  });
});

describe('calendar', () => {
  it('sums days by closing date with weeks from Monday, months and years', () => {
    const c = computeCalendar(T);
    expect(c.days.map((d) => [d.key, d.net_minor, d.trades])).toEqual([
      ['2026-01-05', 100, 2],
      ['2026-01-07', 50, 1],
      ['2026-01-09', -300, 1],
      ['2026-01-12', 0, 1],
    ]);
    expect(c.weeks.map((d) => [d.key, d.net_minor])).toEqual([
      ['2026-01-05', -150],
      ['2026-01-12', 0],
    ]);
    expect(c.months).toEqual([{ key: '2026-01', net_minor: -150, trades: 5, wins: 2, losses: 2 }]);
    expect(c.years.map((d) => [d.key, d.net_minor])).toEqual([['2026', -150]]);
  });

  it('reads the day in the trader time zone', () => {
    const c = computeCalendar(T, 'America/New_York');
    expect(c.days.map((d) => [d.key, d.net_minor])).toEqual([
      ['2026-01-05', 100],
      ['2026-01-06', 50],
      ['2026-01-09', -300],
      ['2026-01-12', 0],
    ]);
  });

  it('weeks cross months and years on their Monday', () => {
    const c = computeCalendar([
      trade({ id: 'x', opened_at: '2025-12-31T10:00:00Z', closed_at: '2025-12-31T11:00:00Z', pnl_minor: 10 }),
      trade({ id: 'y', opened_at: '2026-01-02T10:00:00Z', closed_at: '2026-01-02T11:00:00Z', pnl_minor: 5 }),
    ]);
    expect(c.weeks.map((d) => [d.key, d.net_minor])).toEqual([['2025-12-29', 15]]);
    expect(c.years.map((d) => [d.key, d.net_minor])).toEqual([
      ['2025', 10],
      ['2026', 5],
    ]);
  });
});

describe('distribution', () => {
  it('bins R multiples half an R wide with open ends, leaving out trades without risk', () => {
    const h = rHistogram([
      ...T,
      { pnl_minor: -500, initial_risk_minor: 100 },
      { pnl_minor: 900, initial_risk_minor: 100 },
    ]);
    expect(h.bins).toHaveLength(18);
    expect(h.without_risk).toBe(1);
    const nonEmpty = h.bins.filter((b) => b.count).map((b) => [b.from_r, b.to_r, b.count]);
    expect(nonEmpty).toEqual([
      [null, -3, 1],
      [-1.5, -1, 1],
      [-1, -0.5, 1],
      [0, 0.5, 1],
      [2, 2.5, 1],
      [5, null, 1],
    ]);
  });

  it('follows equity and its fall from the running peak', () => {
    const e = equityWithDrawdown(T);
    expect(e.points.map((p) => [p.equity_minor, p.drawdown_minor])).toEqual([
      [200, 0],
      [100, 100],
      [150, 50],
      [-150, 350],
      [-150, 350],
    ]);
    expect(e.max_drawdown_minor).toBe(350);
    expect(equityWithDrawdown(T, 1000).points[3]!.equity_minor).toBe(850);
  });

  it('counts streaks, a breakeven ending both', () => {
    expect(streaks(T)).toEqual({ longest_win: 1, longest_loss: 1, current: 0 });
    const p = (...xs: number[]) => xs.map((pnl_minor) => ({ pnl_minor }));
    expect(streaks(p(1, 1, -1, -1, -1, 1))).toEqual({ longest_win: 2, longest_loss: 3, current: 1 });
    expect(streaks(p(1, -1, -2))).toEqual({ longest_win: 1, longest_loss: 2, current: -2 });
  });
});

describe('journal discipline', () => {
  it('shares journaled, with snapshot, with reason, and journaled vs not', () => {
    const d = journalDiscipline(T);
    expect(d).toMatchObject({ trades: 5, journaled: 2, with_snapshot: 1, with_reason: 2 });
    expect(d.journaled_share).toBeCloseTo(0.4);
    expect(d.snapshot_share).toBeCloseTo(0.2);
    expect(d.journaled_figures).toMatchObject({ trades: 2, net_minor: 100 });
    expect(d.not_journaled_figures).toMatchObject({ trades: 3, net_minor: -250 });
    expect(journalDiscipline([]).journaled_share).toBeNull();
  });
});

describe('MFE and MAE', () => {
  const at = (hhmm: string) => Date.parse(`2026-01-05T${hhmm}:00Z`);
  const bar = (hhmm: string, high: number, low: number) => ({
    time: at(hhmm),
    open: (high + low) / 2,
    high,
    low,
    close: (high + low) / 2,
    volume: 1,
  });
  const eurusd = seriesFromBars([
    bar('09:59', 1.3, 1.0), // before entry: ignored
    bar('10:00', 1.1, 1.098), // against first
    bar('10:01', 1.112, 1.099),
    bar('10:02', 1.106, 1.104),
    bar('10:03', 1.1055, 1.1045),
    bar('10:04', 1.2, 1.0), // after exit: ignored
    bar('11:00', 1.2, 1.195),
  ]);
  const X: ExcursionTrade = {
    id: 'X',
    direction: 'BUY',
    entry_price: 1.1,
    stop_loss: 1.095,
    initial_risk_minor: 100,
    pnl_minor: 100,
    opened_at: '2026-01-05T10:00:30Z',
    closed_at: '2026-01-05T10:03:10Z',
  };
  const Z: ExcursionTrade = {
    id: 'Z',
    direction: 'SELL',
    entry_price: 1.2,
    stop_loss: 1.21,
    initial_risk_minor: 50,
    pnl_minor: 25,
    opened_at: '2026-01-05T11:00:00Z',
    closed_at: '2026-01-05T11:00:40Z',
  };
  const Y: ExcursionTrade = { ...Z, id: 'Y' };
  const r = excursionReport([X, Y, Z], (t) => (t.id === 'Y' ? null : eurusd));

  it('measures in price, R and money between entry and exit', () => {
    const x = r.trades.find((t) => t.id === 'X')!;
    expect(x.mfe_price).toBeCloseTo(0.012);
    expect(x.mae_price).toBeCloseTo(0.002);
    expect(x.mfe_r).toBeCloseTo(2.4);
    expect(x.mae_r).toBeCloseTo(0.4);
    expect([x.mfe_minor, x.mae_minor, x.final_r, x.negative_first]).toEqual([240, 40, 1, true]);
    const z = r.trades.find((t) => t.id === 'Z')!;
    expect(z.mfe_r).toBeCloseTo(0.5);
    expect([z.mae_price, z.negative_first]).toEqual([0, false]);
  });

  it('sums measures taken piece by piece into the same report', () => {
    const xs = [X, Y, Z].map((t) => (t.id === 'Y' ? null : tradeExcursion(t, eurusd)));
    expect(summariseExcursions([X, Y, Z], xs)).toEqual(r);
    const own = summariseExcursions([X, Y, Z], xs, [0.5]);
    // X (2.4 R, closed at 1 R) and Z (0.5 R, closed at 0.5 R) reached 0.5 R; neither closed below it.
    expect(own.left_on_table).toEqual([{ target_r: 0.5, reached: 2, closed_below: 0, left_minor: 0 }]);
  });

  it('reports trades without candles, winners negative first, and money left per target', () => {
    expect(r.without_candles).toEqual(['Y']);
    expect([r.winners, r.winners_negative_first, r.winners_negative_first_share]).toEqual([2, 1, 0.5]);
    expect(r.left_on_table).toEqual([
      { target_r: 1, reached: 1, closed_below: 0, left_minor: 0 },
      { target_r: 2, reached: 1, closed_below: 1, left_minor: 100 },
      { target_r: 3, reached: 0, closed_below: 0, left_minor: 0 },
    ]);
  });
});

describe('isoMs', () => {
  it('reads stored instants like Date.parse, across leap days and centuries, and falls back otherwise', () => {
    for (const s of [
      '2026-01-05T08:30:00.000Z',
      '2024-02-29T23:59:59.999Z',
      '2000-03-01T00:00:00.001Z',
      '1999-12-31T12:00:00.000Z',
      '2100-02-28T01:02:03.456Z',
      '2026-01-05T10:00:00+02:00',
      '2026-01-05',
    ])
      expect(isoMs(s), s).toBe(Date.parse(s));
    for (let ms = Date.UTC(2023, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 86_400_000 * 7 + 3_723_456)
      expect(isoMs(new Date(ms).toISOString())).toBe(ms);
  });
});
