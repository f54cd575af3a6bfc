import { describe, expect, it } from 'vitest';
import { DEFAULT_TARGETS } from '@tradedesk/domain';
import type { SymbolInfoBody } from '@tradedesk/contract';
import { ApiError } from '../../app/errors';
import { executeFailureMessage } from './trades.api';
import {
  computePlan,
  conversionSymbols,
  defaultStopDistance,
  rowsFromTargets,
  targetsFromRows,
  tradeRequest,
  type PlanContext,
  type TradeForm,
} from './tradePlan';

const BTC: SymbolInfoBody = {
  symbol: 'BTCUSD',
  description: 'Bitcoin vs US Dollar',
  digits: 2,
  pip_size: 1,
  tick_size: 0.01,
  contract_size: 1,
  base_currency: 'BTC',
  quote_currency: 'USD',
  volume_min: 0.01,
  volume_step: 0.01,
  volume_max: 20,
};
/** Some of what `GET /trades/symbols/{account}/` lists for a simulated account. */
const SIM_SYMBOLS = ['EURUSD', 'USDJPY', 'EURJPY', 'XAUUSD', 'BTCUSD'];
const EURJPY: SymbolInfoBody = {
  ...BTC,
  symbol: 'EURJPY',
  digits: 3,
  pip_size: 0.01,
  tick_size: 0.001,
  contract_size: 100_000,
  base_currency: 'EUR',
  quote_currency: 'JPY',
  volume_max: 100,
};

const form: TradeForm = {
  accountId: 'acc',
  symbol: 'BTCUSD',
  direction: 'BUY',
  orderType: 'MARKET',
  limitPrice: '',
  riskPercent: 0.5,
  slMode: 'distance',
  slDistance: 400,
  slPrice: '',
  atrMultiplier: 1.5,
  profitMode: 'single',
  tpMode: 'rr_ratio',
  rr: 2,
  tpDistance: 40,
  tpPrice: '',
  targets: rowsFromTargets(DEFAULT_TARGETS),
  timeframe: '15M',
  reason: ' breakout ',
  trader: 'Trader 1',
};
const ctx: PlanContext = {
  bid: 89_985,
  ask: 90_000,
  info: BTC,
  equity: 10_000,
  accountCurrency: 'USD',
  maxLotSize: null,
  atr: null,
  conversion: [],
};

describe('computePlan: the trade calculations panel', () => {
  it('BTCUSD BUY at ask 90000, 0.5 % of 10000 over 400 points: 50/400 = 0.125 → 0.12 lots, risk 48, reward 96 at 2R', () => {
    const r = computePlan(form, ctx);
    if (!r.ok) throw new Error(r.message);
    expect(r.entry).toBe(90_000);
    expect(r.plan.volume).toBe(0.12);
    expect(r.plan.stopLoss.price).toBe(89_600);
    expect(r.plan.takeProfit?.price).toBe(90_800);
    expect(r.plan.projectedLoss).toBe(48);
    expect(r.plan.projectedProfit).toBe(96);
    expect(r.plan.rrRatio).toBe(2);
  });

  it('a SELL enters at the bid: stop 400 above 89985 = 90385', () => {
    const r = computePlan({ ...form, direction: 'SELL' }, ctx);
    if (!r.ok) throw new Error(r.message);
    expect(r.entry).toBe(89_985);
    expect(r.plan.stopLoss.price).toBe(90_385);
  });

  it("symbol info that failed shows the server's reason instead of 'Loading symbol info…'", () => {
    const reason = 'MT5 is not available: no MT5 bridge is configured on this server (MT5_BRIDGE_URL).';
    expect(computePlan(form, { ...ctx, info: undefined, infoError: reason })).toEqual({
      ok: false,
      waiting: false,
      message: reason,
    });
    expect(computePlan(form, { ...ctx, info: undefined })).toEqual({
      ok: false,
      waiting: true,
      message: 'Loading symbol info…',
    });
  });

  it("the account's max_lot_size caps the size: 0.125 → 0.05", () => {
    const r = computePlan(form, { ...ctx, maxLotSize: 0.05 });
    expect(r.ok && r.plan.volume).toBe(0.05);
  });

  it('waits for a price, for equity and for ATR, and names what is missing', () => {
    expect(computePlan(form, { ...ctx, ask: null })).toMatchObject({ ok: false, waiting: true });
    expect(computePlan(form, { ...ctx, equity: undefined })).toMatchObject({ ok: false, waiting: true });
    expect(computePlan({ ...form, slMode: 'atr' }, { ...ctx, atr: undefined })).toMatchObject({
      ok: false,
      waiting: true,
    });
    expect(computePlan({ ...form, slMode: 'atr' }, { ...ctx, atr: null })).toMatchObject({
      ok: false,
      waiting: false,
      message: 'ATR is not available for this symbol and timeframe.',
    });
  });

  it('ATR stop: ATR 200 × 1.5 = 300 points → 50/300 = 0.1666 → 0.16 lots', () => {
    const r = computePlan({ ...form, slMode: 'atr' }, { ...ctx, atr: 200 });
    expect(r.ok && r.plan.volume).toBe(0.16);
    expect(r.ok && r.plan.stopLoss.price).toBe(89_700);
  });

  it('a limit order plans from its own entry price, and needs one', () => {
    expect(computePlan({ ...form, orderType: 'LIMIT' }, ctx)).toMatchObject({ ok: false, waiting: false });
    const r = computePlan({ ...form, orderType: 'LIMIT', limitPrice: 85_000 }, ctx);
    expect(r.ok && r.entry).toBe(85_000);
    expect(r.ok && r.plan.stopLoss.price).toBe(84_600);
  });

  it('a stop price on the wrong side is refused with the domain message', () => {
    const r = computePlan({ ...form, slMode: 'price', slPrice: 91_000 }, ctx);
    expect(r).toMatchObject({ ok: false, waiting: false });
    expect(!r.ok && r.message).toMatch(/Stop loss must be below the entry price for a BUY/);
  });

  it('EURJPY on a USD account converts through USDJPY: 50 USD over 20 pips (0.20 JPY × 100000 = 20000 JPY = 133.33 USD per lot) → 0.37', () => {
    expect(conversionSymbols(EURJPY, 'USD', SIM_SYMBOLS)).toEqual(['USDJPY']);
    const eurjpyCtx: PlanContext = {
      ...ctx,
      info: EURJPY,
      bid: 176.0,
      ask: 176.02,
      conversion: [{ symbol: 'USDJPY', mid: null }],
    };
    const f = { ...form, symbol: 'EURJPY', slDistance: 20 };
    expect(computePlan(f, eurjpyCtx)).toMatchObject({ ok: false, waiting: true });
    const r = computePlan(f, { ...eurjpyCtx, conversion: [{ symbol: 'USDJPY', mid: 150 }] });
    expect(r.ok && r.plan.volume).toBe(0.37);
  });

  it('needs no second price when the quote or base currency is the account currency', () => {
    expect(conversionSymbols(BTC, 'USD', SIM_SYMBOLS)).toEqual([]);
    expect(conversionSymbols({ base_currency: 'USD', quote_currency: 'JPY' }, 'USD', SIM_SYMBOLS)).toEqual(
      [],
    );
    expect(conversionSymbols({ base_currency: 'XAU', quote_currency: 'USD' }, 'EUR', SIM_SYMBOLS)).toEqual([
      'EURUSD',
    ]);
  });

  it('converts only through a symbol the account trades, in either direction', () => {
    expect(conversionSymbols(EURJPY, 'USD', ['EURJPY', 'JPYUSD'])).toEqual(['JPYUSD']);
    expect(conversionSymbols(EURJPY, 'USD', ['EURJPY', 'EURUSD'])).toEqual([]);
    expect(conversionSymbols(EURJPY, 'USD', [])).toEqual([]);
  });

  it('USDCAD and USDCHF on EUR, GBP and JPY accounts convert through USD: the modal watches the other leg', () => {
    const usdcad: SymbolInfoBody = {
      ...EURJPY,
      symbol: 'USDCAD',
      digits: 5,
      pip_size: 0.0001,
      base_currency: 'USD',
      quote_currency: 'CAD',
    };
    const tradable = ['EURUSD', 'GBPUSD', 'USDJPY', 'USDCAD', 'USDCHF'];
    expect(conversionSymbols(usdcad, 'EUR', tradable)).toEqual(['EURUSD']);
    expect(conversionSymbols({ base_currency: 'USD', quote_currency: 'CHF' }, 'GBP', tradable)).toEqual([
      'GBPUSD',
    ]);
    expect(conversionSymbols(usdcad, 'JPY', tradable)).toEqual(['USDJPY']);
    // USDCAD 1.40, EURUSD 1.10 on a EUR account: 1 CAD = 1/1.40 USD = 1/(1.40 × 1.10) EUR.
    const c: PlanContext = {
      ...ctx,
      info: usdcad,
      bid: 1.39995,
      ask: 1.40005,
      accountCurrency: 'EUR',
      conversion: [{ symbol: 'EURUSD', mid: null }],
    };
    const f = { ...form, symbol: 'USDCAD', slDistance: 20 };
    expect(computePlan(f, c)).toMatchObject({ ok: false, waiting: true });
    const r = computePlan(f, { ...c, conversion: [{ symbol: 'EURUSD', mid: 1.1 }] });
    if (!r.ok) throw new Error(r.message);
    // 50 EUR ÷ (0.0020 × 100000 ÷ 1.54 EUR per lot) = 50 ÷ 129.87 = 0.385 → 0.38 lots.
    expect(r.plan.volume).toBe(0.38);
  });

  it('multi TP: the default plan is two 50 % targets at 1.5R and 3R; 0.12 lots split 0.06 / 0.06', () => {
    expect(targetsFromRows(rowsFromTargets(DEFAULT_TARGETS))).toEqual([
      { rank: 1, share: 0.5, tp_type: 'RR', rr: 1.5 },
      { rank: 2, share: 0.5, tp_type: 'RR', rr: 3 },
    ]);
    const r = computePlan({ ...form, profitMode: 'multi' }, ctx);
    if (!r.ok) throw new Error(r.message);
    expect(r.plan.targets?.map((t) => [t.volume, t.price])).toEqual([
      [0.06, 90_600],
      [0.06, 91_200],
    ]);
    // 0.06 × 600 + 0.06 × 1200 = 108
    expect(r.plan.projectedProfit).toBe(108);
  });

  it('multi TP shares that do not add up to 100 % are refused', () => {
    const r = computePlan(
      {
        ...form,
        profitMode: 'multi',
        targets: [
          { share: 50, tp_type: 'RR', value: 1 },
          { share: 30, tp_type: 'RR', value: 2 },
        ],
      },
      ctx,
    );
    expect(!r.ok && r.message).toMatch(/sum to 100%/);
  });
});

describe('tradeRequest: the body sent to POST /trades/execute/', () => {
  it('carries distances in price units, the take-profit price and the trimmed reason', () => {
    const r = computePlan(form, ctx);
    if (!r.ok) throw new Error(r.message);
    expect(tradeRequest(form, r.plan)).toEqual({
      account_id: 'acc',
      symbol: 'BTCUSD',
      lot_size: 0.12,
      direction: 'BUY',
      order_type: 'MARKET',
      limit_price: null,
      risk_percent: 0.5,
      stop_loss_distance: 400,
      take_profit: 90_800,
      take_profit_distance: 800,
      rr_ratio: 2,
      projected_profit: 96,
      projected_loss: 48,
      atr_multiplier: null,
      reason: 'breakout',
      trader: 'Trader 1',
      timeframe: '15M',
      partial_profit: false,
    });
  });

  it('a multi-TP trade sends its targets with shares 0-1 and no single take profit', () => {
    const f = { ...form, profitMode: 'multi' as const };
    const r = computePlan(f, ctx);
    if (!r.ok) throw new Error(r.message);
    const body = tradeRequest(f, r.plan);
    expect(body.partial_profit).toBe(true);
    expect(body.take_profit).toBeNull();
    expect(body.targets).toEqual([
      { rank: 1, share: 0.5, tp_type: 'RR', rr: 1.5 },
      { rank: 2, share: 0.5, tp_type: 'RR', rr: 3 },
    ]);
  });
});

describe('defaultStopDistance: max(20 pips, 10 × spread), in whole pips', () => {
  const EURUSD = { pip_size: 0.0001 };
  it('EURUSD at a 0.2-pip spread (1.16000 / 1.16002): 10 × 0.2 = 2 pips, so the 20-pip floor', () => {
    expect(defaultStopDistance(EURUSD, 1.16, 1.16002)).toEqual({ pips: 20, reason: 'Default: 20 pips' });
  });
  it('BTCUSD (pip 1) at a 15-point spread (87000 / 87015): 10 × 15 = 150 pips, clear of the spread', () => {
    expect(defaultStopDistance(BTC, 87_000, 87_015)).toEqual({ pips: 150, reason: 'Default: 10 × spread' });
  });
  it('XAUUSD (pip 0.1) at a 0.35 spread = 3.5 pips: 35 pips', () => {
    expect(defaultStopDistance({ pip_size: 0.1 }, 4000, 4000.35).pips).toBe(35);
  });
  it('rounds 10 × spread to a whole pip: a 2.46-pip spread gives 25, a 2.04-pip one 20', () => {
    expect(defaultStopDistance(EURUSD, 1.1, 1.100246).pips).toBe(25);
    expect(defaultStopDistance(EURUSD, 1.1, 1.100204)).toEqual({ pips: 20, reason: 'Default: 20 pips' });
  });
  it('exactly 2 pips of spread gives 20 either way, named as the floor', () => {
    expect(defaultStopDistance(EURUSD, 1.1, 1.1002)).toEqual({ pips: 20, reason: 'Default: 20 pips' });
  });
});

describe('executeFailureMessage: a plain string, then detail, then error, then the serialized body', () => {
  it.each([
    ['plain string', 'Market closed', 'Market closed'],
    [
      'detail',
      { detail: 'max_open_positions: 1 position is already open, the limit is 1.' },
      'max_open_positions: 1 position is already open, the limit is 1.',
    ],
    ['error', { error: 'Broker offline' }, 'Broker offline'],
    ['serialized', { code: 7 }, '{"code":7}'],
  ])('%s', (_name, body, expected) => {
    expect(executeFailureMessage(new ApiError(422, body, 'failed'))).toBe(expected);
  });
});
