import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ATR_MULTIPLIER,
  assertStopSides,
  profitLoss,
  projectTrade,
  resolveStopLoss,
  resolveTakeProfit,
  rrRatio,
  stopSideErrors,
  TradeValidationError,
  type PriceContext,
} from './stops';

const eurBuy: PriceContext = { side: 'BUY', entry: 1.1, pip_size: 0.0001, digits: 5 };
const eurSell: PriceContext = { ...eurBuy, side: 'SELL' };
const jpyBuy: PriceContext = { side: 'BUY', entry: 150, pip_size: 0.01, digits: 3 };
const goldBuy: PriceContext = { side: 'BUY', entry: 2000, pip_size: 0.1, digits: 2 };

describe('resolveStopLoss: three modes', () => {
  it.each([
    [
      'EURUSD BUY 1.10000, 20 pips × 0.0001 = 0.0020 below → 1.09800',
      eurBuy,
      { mode: 'distance', pips: 20 },
      1.098,
      0.002,
      20,
    ],
    [
      'EURUSD SELL 1.10000, 20 pips above → 1.10200',
      eurSell,
      { mode: 'distance', pips: 20 },
      1.102,
      0.002,
      20,
    ],
    [
      'USDJPY BUY 150.000, 35 pips × 0.01 = 0.35 below → 149.650',
      jpyBuy,
      { mode: 'distance', pips: 35 },
      149.65,
      0.35,
      35,
    ],
    [
      'EURUSD BUY price 1.09850 → distance 0.0015 = 15 pips',
      eurBuy,
      { mode: 'price', price: 1.0985 },
      1.0985,
      0.0015,
      15,
    ],
    ['EURUSD SELL price 1.10250 → 25 pips', eurSell, { mode: 'price', price: 1.1025 }, 1.1025, 0.0025, 25],
    [
      'XAUUSD BUY 2000.00, ATR 4.00 × default 1.5 = 6.00 → 1994.00 (60 pips of 0.1)',
      goldBuy,
      { mode: 'atr', atr: 4 },
      1994,
      6,
      60,
    ],
    [
      'EURUSD SELL, ATR 0.00123 × 2 = 0.00246 → 1.10246',
      eurSell,
      { mode: 'atr', atr: 0.00123, multiplier: 2 },
      1.10246,
      0.00246,
      24.6,
    ],
    [
      'EURUSD BUY, ATR 0.001234 × 1.5 = 0.001851 → 1.098149 rounds to 1.09815, distance re-measured 0.00185',
      eurBuy,
      { mode: 'atr', atr: 0.001234 },
      1.09815,
      0.00185,
      18.5,
    ],
  ] as const)('%s', (_name, ctx, mode, price, distance, pips) => {
    const sl = resolveStopLoss(mode, ctx);
    expect(sl.price).toBe(price);
    expect(sl.distance).toBe(distance);
    expect(sl.pips).toBe(pips);
  });

  it('the default ATR multiplier is 1.5', () => {
    expect(DEFAULT_ATR_MULTIPLIER).toBe(1.5);
  });

  it('refuses a BUY stop above the entry with a clear message', () => {
    expect(() => resolveStopLoss({ mode: 'price', price: 1.101 }, eurBuy)).toThrow(
      'Stop loss must be below the entry price for a BUY (stop loss 1.10100, entry price 1.10000).',
    );
  });

  it('refuses a SELL stop below the entry', () => {
    expect(() => resolveStopLoss({ mode: 'price', price: 1.099 }, eurSell)).toThrow(
      'Stop loss must be above the entry price for a SELL (stop loss 1.09900, entry price 1.10000).',
    );
  });

  it('refuses a stop at the entry, a non-positive distance, and a stop below zero', () => {
    expect(() => resolveStopLoss({ mode: 'price', price: 1.1 }, eurBuy)).toThrow(TradeValidationError);
    expect(() => resolveStopLoss({ mode: 'distance', pips: 0 }, eurBuy)).toThrow(
      'Stop-loss distance in pips must be a positive number.',
    );
    expect(() => resolveStopLoss({ mode: 'distance', pips: 12_000 }, eurBuy)).toThrow(/below zero/);
    expect(() => resolveStopLoss({ mode: 'atr', atr: 0.001, multiplier: 0 }, eurBuy)).toThrow(
      /ATR multiplier/,
    );
  });

  it('a stop that rounds onto the entry is refused (ATR 0.000001 × 1.5 = 0.0000015, under one 5-digit point)', () => {
    expect(() => resolveStopLoss({ mode: 'atr', atr: 0.000001 }, eurBuy)).toThrow(
      /rounds to the entry price/,
    );
  });
});

describe('resolveTakeProfit: three modes', () => {
  it.each([
    [
      'BUY RR 2 with SL 0.0020: 1.10000 + 2 × 0.0020 = 1.10400',
      eurBuy,
      { mode: 'rr_ratio', rr: 2 },
      1.104,
      2,
    ],
    ['SELL RR 2 with SL 0.0020: 1.10000 − 0.0040 = 1.09600', eurSell, { mode: 'rr_ratio', rr: 2 }, 1.096, 2],
    ['BUY 50 pips: 1.10500, RR 0.0050 ÷ 0.0020 = 2.5', eurBuy, { mode: 'distance', pips: 50 }, 1.105, 2.5],
    ['BUY price 1.10300: RR 0.0030 ÷ 0.0020 = 1.5', eurBuy, { mode: 'price', price: 1.103 }, 1.103, 1.5],
    ['SELL price 1.09700: RR 1.5', eurSell, { mode: 'price', price: 1.097 }, 1.097, 1.5],
  ] as const)('%s', (_name, ctx, mode, price, rr) => {
    const tp = resolveTakeProfit(mode, ctx, 0.002);
    expect(tp.price).toBe(price);
    expect(tp.rr).toBe(rr);
  });

  it('refuses a SELL target above the entry', () => {
    expect(() => resolveTakeProfit({ mode: 'price', price: 1.103 }, eurSell, 0.002)).toThrow(
      'Take profit must be below the entry price for a SELL (take profit 1.10300, entry price 1.10000).',
    );
  });

  it('refuses a BUY target below the entry', () => {
    expect(() => resolveTakeProfit({ mode: 'price', price: 1.097 }, eurBuy, 0.002)).toThrow(
      'Take profit must be above the entry price for a BUY (take profit 1.09700, entry price 1.10000).',
    );
  });

  it('refuses a non-positive RR', () => {
    expect(() => resolveTakeProfit({ mode: 'rr_ratio', rr: 0 }, eurBuy, 0.002)).toThrow(
      'RR ratio must be a positive number.',
    );
  });
});

describe('side checks', () => {
  it('collects both errors and can name the current price when amending', () => {
    expect(
      stopSideErrors({ side: 'BUY', entry: 1.1, stopLoss: 1.2, takeProfit: 1.0, digits: 5 }, 'current price'),
    ).toEqual([
      'Stop loss must be below the current price for a BUY (stop loss 1.20000, current price 1.10000).',
      'Take profit must be above the current price for a BUY (take profit 1.00000, current price 1.10000).',
    ]);
  });

  it('accepts consistent stops and ignores missing ones', () => {
    expect(stopSideErrors({ side: 'SELL', entry: 1.1, stopLoss: 1.11, takeProfit: 1.09, digits: 5 })).toEqual(
      [],
    );
    expect(() =>
      assertStopSides({ side: 'SELL', entry: 1.1, stopLoss: null, takeProfit: undefined, digits: 5 }),
    ).not.toThrow();
  });

  it('reports the field of the error', () => {
    try {
      assertStopSides({ side: 'SELL', entry: 1.1, takeProfit: 1.2, digits: 5 });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(TradeValidationError);
      expect((e as TradeValidationError).field).toBe('take_profit');
    }
  });
});

describe('RR, P/L and projections', () => {
  it('rrRatio(1.10000, SL 1.09800, TP 1.10500) = 0.0050 ÷ 0.0020 = 2.5', () => {
    expect(rrRatio(1.1, 1.098, 1.105)).toBe(2.5);
  });

  it('rrRatio with 1/3: entry 100, SL 97, TP 101 = 0.33', () => {
    expect(rrRatio(100, 97, 101)).toBe(0.33);
  });

  it('EURUSD BUY 0.50 lots 1.10000 → 1.09800: −0.0020 × 0.5 × 100,000 = −100.00 USD', () => {
    expect(
      profitLoss({
        side: 'BUY',
        entry: 1.1,
        exit: 1.098,
        volume: 0.5,
        contract_size: 100_000,
        quoteToAccountRate: 1,
        accountCurrency: 'USD',
      }),
    ).toBe(-100);
  });

  it('USDJPY SELL 1.00 lot 150.000 → 149.500 on USD (USDJPY 160): 0.5 × 100,000 = 50,000 JPY ÷ 160 = 312.50 USD', () => {
    expect(
      profitLoss({
        side: 'SELL',
        entry: 150,
        exit: 149.5,
        volume: 1,
        contract_size: 100_000,
        quoteToAccountRate: 1 / 160,
        accountCurrency: 'USD',
      }),
    ).toBe(312.5);
  });

  it('XAUUSD BUY 0.10 lot 2000.00 → 2001.33 on USD: 1.33 × 0.1 × 100 = 13.30 USD (float gives 13.299999…)', () => {
    expect(
      profitLoss({
        side: 'BUY',
        entry: 2000,
        exit: 2001.33,
        volume: 0.1,
        contract_size: 100,
        quoteToAccountRate: 1,
        accountCurrency: 'USD',
      }),
    ).toBe(13.3);
  });

  it('projection EURUSD BUY 0.50 lots 1.10000, SL 1.09800, TP 1.10500: loss 100.00 USD = 1R, profit 250.00 USD = 2.5R', () => {
    expect(
      projectTrade({
        side: 'BUY',
        entry: 1.1,
        stopLoss: 1.098,
        takeProfit: 1.105,
        volume: 0.5,
        contract_size: 100_000,
        quoteToAccountRate: 1,
        accountCurrency: 'USD',
        digits: 5,
      }),
    ).toEqual({ projectedLoss: 100, projectedProfit: 250, lossR: -1, profitR: 2.5, rrRatio: 2.5 });
  });

  it('projection EURJPY SELL 0.20 lots 170.000, SL 170.400, TP 169.200 on USD (USDJPY 160): loss 0.4 × 20,000 ÷ 160 = 50.00, profit 0.8 × 20,000 ÷ 160 = 100.00, 2R', () => {
    expect(
      projectTrade({
        side: 'SELL',
        entry: 170,
        stopLoss: 170.4,
        takeProfit: 169.2,
        volume: 0.2,
        contract_size: 100_000,
        quoteToAccountRate: 1 / 160,
        accountCurrency: 'USD',
        digits: 3,
      }),
    ).toEqual({ projectedLoss: 50, projectedProfit: 100, lossR: -1, profitR: 2, rrRatio: 2 });
  });

  it('projection refuses stops on the wrong side', () => {
    expect(() =>
      projectTrade({
        side: 'SELL',
        entry: 1.1,
        stopLoss: 1.098,
        takeProfit: 1.095,
        volume: 1,
        contract_size: 100_000,
        quoteToAccountRate: 1,
        accountCurrency: 'USD',
        digits: 5,
      }),
    ).toThrow('Stop loss must be above the entry price for a SELL (stop loss 1.09800, entry price 1.10000).');
  });
});
