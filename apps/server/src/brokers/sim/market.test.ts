import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Quote, Timeframe } from '../types';
import { createSimMarket } from './market';

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Wednesday 18 November 2026, 15:00 UTC (London/New York overlap). */
const WED_15H = Date.UTC(2026, 10, 18, 15, 0, 0);
/** Friday 20 November 2026 22:00 UTC: FX closes for the weekend. */
const FRI_CLOSE = Date.UTC(2026, 10, 20, 22, 0, 0);
/** Sunday 22 November 2026 22:00 UTC: FX reopens. */
const SUN_OPEN = Date.UTC(2026, 10, 22, 22, 0, 0);

const market = createSimMarket({ seed: 42 });
const ALL = [
  'EURUSD',
  'GBPUSD',
  'USDJPY',
  'AUDUSD',
  'USDCAD',
  'USDCHF',
  'NZDUSD',
  'EURJPY',
  'GBPJPY',
  'XAUUSD',
  'US100',
  'US30',
  'BTCUSD',
];
const mid = (q: Quote) => (q.bid + q.ask) / 2;
const hasDigits = (x: number, digits: number) =>
  Math.abs(x * 10 ** digits - Math.round(x * 10 ** digits)) < 1e-6;

describe('catalogue', () => {
  it('lists every required symbol with industry conventions', () => {
    expect(market.specs().map((s) => s.symbol)).toEqual(expect.arrayContaining(ALL));
    const eurusd = market.spec('EURUSD')!;
    expect(eurusd).toMatchObject({
      digits: 5,
      pip_size: 0.0001,
      tick_size: 0.00001,
      contract_size: 100_000,
      base_currency: 'EUR',
      quote_currency: 'USD',
      volume_min: 0.01,
      volume_step: 0.01,
      commission_per_lot: 3.5,
      calendar: 'fx',
    });
    expect(market.spec('USDJPY')).toMatchObject({
      digits: 3,
      pip_size: 0.01,
      tick_size: 0.001,
      quote_currency: 'JPY',
    });
    expect(market.spec('GBPJPY')).toMatchObject({ digits: 3, pip_size: 0.01, base_currency: 'GBP' });
    expect(market.spec('XAUUSD')).toMatchObject({
      digits: 2,
      pip_size: 0.1,
      contract_size: 100,
      base_currency: 'XAU',
    });
    expect(market.spec('US100')).toMatchObject({
      digits: 2,
      contract_size: 1,
      base_currency: 'US100',
      quote_currency: 'USD',
      commission_per_lot: 0,
      calendar: 'index',
    });
    expect(market.spec('US30')).toMatchObject({ base_currency: 'US30', quote_currency: 'USD' });
    expect(market.spec('BTCUSD')).toMatchObject({ digits: 2, contract_size: 1, calendar: 'crypto' });
    for (const s of market.specs()) {
      expect(s.spread).toBeGreaterThan(0);
      expect(s.annual_vol).toBeGreaterThan(0);
      expect(s.volume_max).toBeGreaterThan(s.volume_min);
    }
  });

  it('adds synthetic instruments on request, for load tests', () => {
    expect(market.spec('SYN001')).toBeUndefined();
    const big = createSimMarket({ seed: 42, extraSymbols: 87 });
    expect(big.specs()).toHaveLength(100);
    expect(big.spec('SYN087')).toMatchObject({ digits: 5, quote_currency: 'USD', calendar: 'fx' });
    const q = big.quoteAt('SYN042', WED_15H);
    expect(q.ask).toBeGreaterThan(q.bid);
    expect(q.bid).not.toBe(big.quoteAt('SYN043', WED_15H).bid);
    // The catalogue symbols are unchanged by the extras.
    expect(big.quoteAt('EURUSD', WED_15H)).toEqual(market.quoteAt('EURUSD', WED_15H));
  });

  it('knows nothing of unknown symbols', () => {
    expect(market.spec('FOOBAR')).toBeUndefined();
    expect(() => market.quoteAt('FOOBAR', WED_15H)).toThrow(/Unknown symbol/);
    expect(() => market.candles('EURUSD', 'H2' as Timeframe, 0, WED_15H, WED_15H)).toThrow(
      /Unknown timeframe/,
    );
    expect(() => market.quoteAt('EURUSD', Number.NaN)).toThrow(/Invalid time/);
  });

  it('quotes at current-era levels', () => {
    const levels: Record<string, [number, number]> = {
      EURUSD: [0.8, 1.6],
      USDJPY: [90, 230],
      XAUUSD: [1800, 8000],
      US100: [12_000, 50_000],
      BTCUSD: [30_000, 300_000],
    };
    for (const [symbol, [lo, hi]] of Object.entries(levels)) {
      for (const seed of [1, 2, 3]) {
        const q = createSimMarket({ seed }).quoteAt(symbol, WED_15H);
        expect(q.bid).toBeGreaterThan(lo);
        expect(q.bid).toBeLessThan(hi);
      }
    }
  });
});

describe('determinism', () => {
  it('gives the same prices for the same seed, whatever was asked before', () => {
    const a = createSimMarket({ seed: 7 });
    const b = createSimMarket({ seed: 7 });
    // Warm b up elsewhere in time so that any internal caching would show.
    b.candles('EURUSD', 'D1', Date.UTC(2015, 0, 1), Date.UTC(2016, 0, 1), WED_15H);
    b.quoteAt('EURUSD', Date.UTC(2031, 5, 1));
    for (const symbol of ALL) {
      for (const t of [WED_15H, WED_15H + 123_456, Date.UTC(2012, 3, 4, 5, 6, 7), Date.UTC(2030, 0, 2, 10)]) {
        expect(a.quoteAt(symbol, t)).toEqual(b.quoteAt(symbol, t));
      }
    }
    expect(a.candles('GBPJPY', 'M5', WED_15H - 6 * HOUR, WED_15H, WED_15H)).toEqual(
      b.candles('GBPJPY', 'M5', WED_15H - 6 * HOUR, WED_15H, WED_15H),
    );
  });

  it('gives different prices for a different seed', () => {
    const a = createSimMarket({ seed: 7 });
    const c = createSimMarket({ seed: 8 });
    let same = 0;
    for (const symbol of ALL) if (a.quoteAt(symbol, WED_15H).bid === c.quoteAt(symbol, WED_15H).bid) same++;
    expect(same).toBe(0);
  });

  it('moves over time', () => {
    const distinct = new Set<number>();
    for (let i = 0; i < 240; i++) distinct.add(market.quoteAt('EURUSD', WED_15H + i * 250).bid);
    expect(distinct.size).toBeGreaterThan(20);
  });
});

describe('quotes', () => {
  it('keeps ask above bid and prices on the symbol digits', () => {
    for (const symbol of ALL) {
      const { digits } = market.spec(symbol)!;
      for (let i = 0; i < 200; i++) {
        const q = market.quoteAt(symbol, WED_15H + i * 37 * MIN + i * 251);
        expect(q.ask).toBeGreaterThan(q.bid);
        expect(hasDigits(q.bid, digits)).toBe(true);
        expect(hasDigits(q.ask, digits)).toBe(true);
      }
    }
  });

  it('has typical spreads in quiet London hours and wider ones around the rollover and in Asia', () => {
    const avgSpread = (symbol: string, hourUtc: number, minute = 0) => {
      let sum = 0;
      let n = 0;
      for (let d = 0; d < 20; d++) {
        const day = Date.UTC(2026, 8, 1) + d * DAY; // weekdays only below
        if ([0, 6].includes(new Date(day).getUTCDay()) || new Date(day).getUTCDay() === 5) continue;
        for (let i = 0; i < 20; i++) {
          const q = market.quoteAt(symbol, day + hourUtc * HOUR + minute * MIN + i * 7_000);
          sum += q.ask - q.bid;
          n++;
        }
      }
      return sum / n;
    };
    const london = avgSpread('EURUSD', 9);
    expect(london).toBeGreaterThan(0.000012);
    expect(london).toBeLessThan(0.00004);
    expect(avgSpread('EURUSD', 21, 57)).toBeGreaterThan(2.5 * london);
    expect(avgSpread('EURUSD', 3)).toBeGreaterThan(1.2 * london);
  });

  it('keeps crosses consistent with their legs', () => {
    for (let i = 0; i < 50; i++) {
      const t = WED_15H + i * 17 * MIN;
      const cross = mid(market.quoteAt('EURJPY', t));
      const legs = mid(market.quoteAt('EURUSD', t)) * mid(market.quoteAt('USDJPY', t));
      expect(Math.abs(cross - legs)).toBeLessThan(0.01);
      const gbp =
        mid(market.quoteAt('GBPJPY', t)) -
        mid(market.quoteAt('GBPUSD', t)) * mid(market.quoteAt('USDJPY', t));
      expect(Math.abs(gbp)).toBeLessThan(0.02);
    }
  });
});

describe('trading calendar', () => {
  it('closes FX and gold from Friday 22:00 to Sunday 22:00 UTC, with the last quote holding', () => {
    for (const symbol of ['EURUSD', 'USDJPY', 'EURJPY', 'XAUUSD']) {
      expect(market.isOpen(symbol, FRI_CLOSE - 1)).toBe(true);
      expect(market.isOpen(symbol, FRI_CLOSE)).toBe(false);
      expect(market.isOpen(symbol, FRI_CLOSE + DAY)).toBe(false);
      expect(market.isOpen(symbol, SUN_OPEN - 1)).toBe(false);
      expect(market.isOpen(symbol, SUN_OPEN)).toBe(true);
      const last = market.quoteAt(symbol, FRI_CLOSE - 1);
      for (const t of [FRI_CLOSE, FRI_CLOSE + 5 * HOUR, FRI_CLOSE + DAY + 777, SUN_OPEN - 1]) {
        const q = market.quoteAt(symbol, t);
        expect([q.bid, q.ask]).toEqual([last.bid, last.ask]);
        // Stamped with the time of the last price before the closure (the last 250 ms step).
        expect(q.time).toBe(FRI_CLOSE - 250);
      }
    }
  });

  it('opens Sunday with a gap from Friday, for FX but not for BTC', () => {
    let gaps = 0;
    let gapSum = 0;
    let minuteMoves = 0;
    for (let w = 0; w < 30; w++) {
      const fri = FRI_CLOSE - w * 7 * DAY;
      const sun = SUN_OPEN - w * 7 * DAY;
      const before = market.quoteAt('EURUSD', fri - 1).bid;
      const after = market.quoteAt('EURUSD', sun).bid;
      if (after !== before) gaps++;
      gapSum += Math.abs(after - before);
      minuteMoves += Math.abs(
        market.quoteAt('EURUSD', sun + 10 * MIN).bid - market.quoteAt('EURUSD', sun + 9 * MIN).bid,
      );
    }
    expect(gaps).toBeGreaterThanOrEqual(28);
    expect(gapSum / 30).toBeGreaterThan(5 * (minuteMoves / 30));
    // Bitcoin trades through the weekend.
    expect(market.isOpen('BTCUSD', FRI_CLOSE + DAY)).toBe(true);
    expect(market.quoteAt('BTCUSD', FRI_CLOSE + DAY).time).toBe(FRI_CLOSE + DAY);
    expect(market.quoteAt('BTCUSD', FRI_CLOSE + DAY).bid).not.toBe(market.quoteAt('BTCUSD', FRI_CLOSE).bid);
    const sat = Date.UTC(2026, 10, 21);
    expect(market.candles('BTCUSD', 'M1', sat, sat + DAY, WED_15H + 7 * DAY)).toHaveLength(1440);
    expect(market.candles('EURUSD', 'M1', sat, sat + DAY, WED_15H + 7 * DAY)).toHaveLength(0);
  });

  it('closes US indices at the weekend and for a daily break', () => {
    const tue = Date.UTC(2026, 10, 17);
    expect(market.isOpen('US100', tue + 15 * HOUR)).toBe(true);
    expect(market.isOpen('US100', tue + 22 * HOUR + 30 * MIN)).toBe(false);
    expect(market.isOpen('US100', tue + 23 * HOUR)).toBe(true);
    expect(market.isOpen('US30', FRI_CLOSE + DAY)).toBe(false);
  });

  it('produces no FX candles for the weekend', () => {
    const d1 = market.candles('EURUSD', 'D1', Date.UTC(2026, 9, 1), Date.UTC(2026, 10, 1), WED_15H);
    for (const c of d1) expect(new Date(c.time).getUTCDay()).not.toBe(6);
    const h1 = market.candles('EURUSD', 'H1', FRI_CLOSE - 5 * HOUR, SUN_OPEN + 5 * HOUR, WED_15H + 7 * DAY);
    expect(h1.map((c) => c.time)).toEqual([
      ...[5, 4, 3, 2, 1].map((h) => FRI_CLOSE - h * HOUR),
      ...[0, 1, 2, 3, 4].map((h) => SUN_OPEN + h * HOUR),
    ]);
  });
});

describe('session volatility', () => {
  const meanAbsMinuteReturn = (symbol: string, fromHour: number, toHour: number) => {
    let sum = 0;
    let n = 0;
    for (let d = 0; d < 60; d++) {
      const day = Date.UTC(2026, 4, 4) + d * DAY;
      const dow = new Date(day).getUTCDay();
      if (dow === 0 || dow === 6) continue;
      for (let t = day + fromHour * HOUR; t < day + toHour * HOUR; t += 10 * MIN) {
        const a = mid(market.quoteAt(symbol, t));
        const b = mid(market.quoteAt(symbol, t + MIN));
        sum += Math.abs(Math.log(b / a));
        n++;
      }
    }
    return sum / n;
  };

  it('is quieter in Asia than in the London/New York overlap for FX', () => {
    const asia = meanAbsMinuteReturn('EURUSD', 1, 5);
    const overlap = meanAbsMinuteReturn('EURUSD', 12, 16);
    expect(overlap / asia).toBeGreaterThan(1.3);
  });

  it('is most active in the US cash session for indices', () => {
    const asia = meanAbsMinuteReturn('US100', 1, 5);
    const cash = meanAbsMinuteReturn('US100', 15, 20);
    expect(cash / asia).toBeGreaterThan(1.6);
  });

  it('moves USD pairs together through a common dollar factor', () => {
    const dailyReturns = (symbol: string) => {
      const out: number[] = [];
      for (let d = 0; d < 400; d++) {
        const t = Date.UTC(2025, 0, 1, 21) + d * DAY;
        const dow = new Date(t).getUTCDay();
        if (dow === 0 || dow === 6 || dow === 5) continue;
        out.push(Math.log(mid(market.quoteAt(symbol, t + DAY)) / mid(market.quoteAt(symbol, t))));
      }
      return out;
    };
    const corr = (a: number[], b: number[]) => {
      const ma = a.reduce((x, y) => x + y) / a.length;
      const mb = b.reduce((x, y) => x + y) / b.length;
      let cov = 0;
      let va = 0;
      let vb = 0;
      a.forEach((x, i) => {
        cov += (x - ma) * (b[i]! - mb);
        va += (x - ma) ** 2;
        vb += (b[i]! - mb) ** 2;
      });
      return cov / Math.sqrt(va * vb);
    };
    const eur = dailyReturns('EURUSD');
    expect(corr(eur, dailyReturns('GBPUSD'))).toBeGreaterThan(0.2);
    expect(corr(eur, dailyReturns('USDCHF'))).toBeLessThan(-0.2);
    expect(Math.abs(corr(eur, dailyReturns('US100')))).toBeLessThan(0.2);
  });

  it('differs by symbol', () => {
    const eurusd = meanAbsMinuteReturn('EURUSD', 12, 16);
    const btc = meanAbsMinuteReturn('BTCUSD', 12, 16);
    expect(btc / eurusd).toBeGreaterThan(3);
  });
});

describe('candles', () => {
  const TFS: Timeframe[] = ['M1', 'M5', 'M15', 'M30', 'H1', 'H4', 'D1', 'W1', 'MN1'];
  const now = WED_15H + 17 * MIN + 12_345;

  it('respect OHLC invariants and the symbol digits on every timeframe', () => {
    for (const symbol of ['EURUSD', 'USDJPY', 'GBPJPY', 'XAUUSD', 'US30', 'BTCUSD']) {
      const { digits } = market.spec(symbol)!;
      for (const tf of TFS) {
        const span = {
          M1: 6 * HOUR,
          M5: DAY,
          M15: 3 * DAY,
          M30: 5 * DAY,
          H1: 10 * DAY,
          H4: 40 * DAY,
          D1: 200 * DAY,
        }[tf as string];
        const from = now - (span ?? 2 * 365 * DAY);
        const candles = market.candles(symbol, tf, from, now + 1, now);
        expect(candles.length).toBeGreaterThan(2);
        // Collected, then asserted once (tens of thousands of expect() calls would be slow).
        const bad = candles.filter(
          (c, i) =>
            c.low > Math.min(c.open, c.close) ||
            c.high < Math.max(c.open, c.close) ||
            !(c.volume > 0) ||
            ![c.open, c.high, c.low, c.close].every((p) => hasDigits(p, digits)) ||
            (i > 0 && c.time <= candles[i - 1]!.time),
        );
        expect(bad, `${symbol} ${tf}`).toEqual([]);
      }
    }
  });

  it('agree with the live quotes: bid prices, close = quote at the end, forming candle ends at now', () => {
    const SPAN: Record<Timeframe, number> = {
      M1: 2 * HOUR,
      M5: 8 * HOUR,
      M15: DAY,
      M30: 2 * DAY,
      H1: 4 * DAY,
      H4: 14 * DAY,
      D1: 60 * DAY,
      W1: 300 * DAY,
      MN1: 900 * DAY,
    };
    for (const symbol of ['EURUSD', 'EURJPY', 'US100', 'BTCUSD']) {
      for (const tf of TFS) {
        const candles = market.candles(symbol, tf, now - SPAN[tf], now + 1, now);
        const last = candles.at(-1)!;
        expect(last.close).toBe(market.quoteAt(symbol, now).bid);
        for (const c of candles.slice(-30, -1)) {
          const next = candles[candles.indexOf(c) + 1]!.time;
          const end =
            tf === 'MN1' || tf === 'W1'
              ? next
              : c.time + { M1: 1, M5: 5, M15: 15, M30: 30, H1: 60, H4: 240, D1: 1440 }[tf]! * MIN;
          expect(c.close).toBe(market.quoteAt(symbol, end - 1).bid);
          if (market.isOpen(symbol, c.time)) expect(c.open).toBe(market.quoteAt(symbol, c.time).bid);
        }
      }
    }
  });

  it('have exact M1 highs and lows: the extremes of every live tick in the minute', () => {
    for (const symbol of ['EURUSD', 'GBPJPY']) {
      const candles = market.candles(symbol, 'M1', WED_15H, WED_15H + 5 * MIN, WED_15H + DAY);
      expect(candles).toHaveLength(5);
      for (const c of candles) {
        let hi = -Infinity;
        let lo = Infinity;
        for (let t = c.time; t < c.time + MIN; t += 250) {
          const q = market.quoteAt(symbol, t);
          hi = Math.max(hi, q.bid);
          lo = Math.min(lo, q.bid);
        }
        expect(c.high).toBe(hi);
        expect(c.low).toBe(lo);
      }
    }
  });

  it('bucket in UTC: D1 at midnight, W1 on Sunday, MN1 on the first of the month, none in the future', () => {
    const d1 = market.candles('BTCUSD', 'D1', now - 30 * DAY, now + 30 * DAY, now);
    expect(d1.every((c) => c.time % DAY === 0)).toBe(true);
    expect(d1.at(-1)!.time).toBe(Date.UTC(2026, 10, 18));
    const w1 = market.candles('EURUSD', 'W1', now - 200 * DAY, now, now);
    expect(w1.every((c) => new Date(c.time).getUTCDay() === 0 && c.time % DAY === 0)).toBe(true);
    const mn1 = market.candles('EURUSD', 'MN1', Date.UTC(2024, 0, 1), now, now);
    expect(mn1).toHaveLength(35);
    expect(mn1.every((c) => new Date(c.time).getUTCDate() === 1 && c.time % DAY === 0)).toBe(true);
    expect(market.candles('EURUSD', 'M1', now + MIN, now + HOUR, now)).toEqual([]);
    expect(() => market.candles('EURUSD', 'M1', now - 200 * DAY, now, now)).toThrow(/Too many candles/);
    // [from, to) on open time.
    const m5 = market.candles('EURUSD', 'M5', WED_15H - HOUR, WED_15H, now);
    expect(m5).toHaveLength(12);
    expect(m5[0]!.time).toBe(WED_15H - HOUR);
    expect(m5.at(-1)!.time).toBe(WED_15H - 5 * MIN);
  });

  it('serve repeated requests from a cache that never freezes a forming candle', () => {
    const m = createSimMarket({ seed: 42 });
    const t1 = WED_15H + 30 * MIN + 20_000; // 20 s into the 15:30 candle
    const first = m.candles('USDJPY', 'M5', WED_15H, WED_15H + HOUR, t1);
    expect(first.at(-1)!.time).toBe(WED_15H + 30 * MIN);
    expect(first.at(-1)!.close).toBe(m.quoteAt('USDJPY', t1).bid);
    const t2 = WED_15H + 2 * HOUR;
    const again = m.candles('USDJPY', 'M5', WED_15H, WED_15H + HOUR, t2);
    expect(again).toHaveLength(12);
    expect(again.slice(0, 6)).toEqual(first.slice(0, 6));
    expect(again[6]!.close).toBe(m.quoteAt('USDJPY', WED_15H + 35 * MIN - 1).bid);
    expect(again).toEqual(createSimMarket({ seed: 42 }).candles('USDJPY', 'M5', WED_15H, WED_15H + HOUR, t2));
    // Callers may mutate what they get without corrupting the cache.
    again[0]!.close = 0;
    expect(m.candles('USDJPY', 'M5', WED_15H, WED_15H + HOUR, t2)[0]!.close).toBe(first[0]!.close);
  });

  // Their speed is measured by bench/sim-market.bench.ts (figures in docs/performance.md).
  it('serve a chart at once: 1,000 M1 candles and 10 years of D1 in one call each', () => {
    const m1 = market.candles('GBPJPY', 'M1', now - 1000 * MIN, now, now);
    const d1 = market.candles('EURUSD', 'D1', now - 3652 * DAY, now + 1, now);
    expect(m1).toHaveLength(1000);
    expect(d1.length).toBeGreaterThan(3000);
  });
});

describe('conversion through the simulator cross rates', () => {
  it('converts JPY P/L of a USDJPY trade into USD at the closing rate', () => {
    const open = market.quoteAt('USDJPY', WED_15H);
    const close = market.quoteAt('USDJPY', WED_15H + 2 * HOUR);
    const pnlJpy = (close.bid - open.ask) * 100_000; // one lot bought
    const usd = market.convert(pnlJpy, 'JPY', 'USD', WED_15H + 2 * HOUR);
    expect(usd).toBeCloseTo(pnlJpy / mid(close), 8);
    // A one-pip move on a lot of USDJPY is worth about USD 6-7 at these levels (1,000 JPY).
    expect(market.convert(1000, 'JPY', 'USD', WED_15H)).toBeGreaterThan(4);
    expect(market.convert(1000, 'JPY', 'USD', WED_15H)).toBeLessThan(11);
  });

  it('uses USD as the hub and round-trips', () => {
    const t = WED_15H + 5 * MIN;
    expect(market.convert(100, 'USD', 'USD', t)).toBe(100);
    expect(market.convert(100, 'EUR', 'USD', t)).toBeCloseTo(100 * mid(market.quoteAt('EURUSD', t)), 8);
    expect(market.convert(100, 'USD', 'CHF', t)).toBeCloseTo(100 * mid(market.quoteAt('USDCHF', t)), 8);
    const eurJpy = market.convert(1, 'EUR', 'JPY', t);
    expect(eurJpy).toBeCloseTo(mid(market.quoteAt('EURUSD', t)) * mid(market.quoteAt('USDJPY', t)), 8);
    expect(Math.abs(eurJpy - mid(market.quoteAt('EURJPY', t)))).toBeLessThan(0.01);
    for (const [a, b] of [
      ['EUR', 'JPY'],
      ['GBP', 'AUD'],
      ['NZD', 'CAD'],
      ['CHF', 'USD'],
    ] as const) {
      expect(market.convert(market.convert(1234.56, a, b, t), b, a, t)).toBeCloseTo(1234.56, 8);
    }
    expect(market.currencies()).toEqual(
      expect.arrayContaining(['USD', 'EUR', 'GBP', 'JPY', 'AUD', 'CAD', 'CHF', 'NZD']),
    );
  });

  it('refuses what is not a currency', () => {
    expect(() => market.convert(1, 'XAU', 'USD', WED_15H)).toThrow();
    expect(() => market.convert(1, 'USD', 'US100', WED_15H)).toThrow();
  });
});

describe('live ticks', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ticks four times a second per symbol while subscribed, each equal to quoteAt at its time', () => {
    vi.useFakeTimers({ now: WED_15H });
    const m = createSimMarket({ seed: 42 });
    const eur: Quote[] = [];
    const btc: Quote[] = [];
    const stopEur = m.subscribe('EURUSD', (q) => eur.push(q));
    const stopBtc = m.subscribe('BTCUSD', (q) => btc.push(q));
    vi.advanceTimersByTime(2_000);
    expect(eur).toHaveLength(8);
    expect(btc).toHaveLength(8);
    for (const q of [...eur, ...btc]) expect(q).toEqual(market.quoteAt(q.symbol, q.time));
    expect(eur[1]!.time - eur[0]!.time).toBe(250);
    expect(m.activeTimers()).toBe(2);
    stopEur();
    vi.advanceTimersByTime(1_000);
    expect(eur).toHaveLength(8);
    expect(btc).toHaveLength(12);
    stopBtc();
    stopBtc(); // idempotent
    expect(m.activeTimers()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('shares one timer per symbol, honours tickIntervalMs and stays silent while the market is closed', () => {
    vi.useFakeTimers({ now: FRI_CLOSE - 1_000 });
    const m = createSimMarket({ seed: 42, tickIntervalMs: 100 });
    const a: Quote[] = [];
    const b: Quote[] = [];
    const stopA = m.subscribe('EURUSD', (q) => a.push(q));
    const stopB = m.subscribe('EURUSD', (q) => b.push(q));
    expect(m.activeTimers()).toBe(1);
    vi.advanceTimersByTime(5_000);
    expect(a).toHaveLength(9); // ticks at -900 .. -100 ms before the close; none at or after 22:00
    expect(b).toEqual(a);
    stopA();
    expect(m.activeTimers()).toBe(1);
    stopB();
    expect(m.activeTimers()).toBe(0);
  });

  it('keeps ticking for the other subscribers when one callback throws', () => {
    vi.useFakeTimers({ now: WED_15H });
    const errors: unknown[] = [];
    const m = createSimMarket({ seed: 1, onListenerError: (e) => errors.push(e) });
    const got: Quote[] = [];
    const stop1 = m.subscribe('GBPUSD', () => {
      throw new Error('boom');
    });
    const stop2 = m.subscribe('GBPUSD', (q) => got.push(q));
    vi.advanceTimersByTime(1_000);
    expect(got).toHaveLength(4);
    expect(errors).toHaveLength(4);
    stop1();
    stop2();
  });

  it('ticks in real time with unref()ed timers', async () => {
    const m = createSimMarket({ seed: 3, tickIntervalMs: 20 });
    const got: Quote[] = [];
    const refTimers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = refTimers();
    const stop = m.subscribe('BTCUSD', (q) => got.push(q));
    // The tick timer does not keep the process alive.
    expect(refTimers()).toBe(before);
    await new Promise((r) => setTimeout(r, 300));
    stop();
    const n = got.length;
    expect(n).toBeGreaterThanOrEqual(3);
    for (const q of got) expect(q).toEqual(m.quoteAt('BTCUSD', q.time));
    await new Promise((r) => setTimeout(r, 60));
    expect(got).toHaveLength(n);
  });
});

describe('price levels a trader recognises', () => {
  // Blocks of 4.25 years let the default seed put EURUSD at 1.37 (2.5 annual vols off) and US30 at 32,000.
  it('keeps every symbol within one annual volatility of its current-era level, week after week for 4 years', () => {
    const anchors: Record<string, number> = {
      EURUSD: 1.16,
      GBPUSD: 1.32,
      USDJPY: 152,
      AUDUSD: 0.655,
      USDCAD: 1.39,
      USDCHF: 0.8,
      NZDUSD: 0.575,
      XAUUSD: 4000,
      US100: 25_000,
      US30: 46_000,
      BTCUSD: 95_000,
    };
    for (const seed of [20240601, 1, 2, 3, 4]) {
      const m = createSimMarket({ seed });
      for (let day = 0; day < 4 * 365; day += 7) {
        const t = Date.parse('2023-01-04T12:00:00Z') + day * 86_400_000;
        for (const [symbol, anchor] of Object.entries(anchors)) {
          const q = m.quoteAt(symbol, t);
          const off = Math.abs(Math.log((q.bid + q.ask) / 2 / anchor));
          expect(off, `${symbol}, seed ${seed}, day ${day}`).toBeLessThan(m.spec(symbol)!.annual_vol);
        }
      }
    }
  });
});
