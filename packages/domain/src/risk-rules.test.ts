import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  evaluateRiskRules,
  formatDuration,
  isValidCooldown,
  parseCooldown,
  type OrderRisk,
  type RiskContext,
  type RiskSettings,
} from './risk-rules';

const NOW = '2026-11-22T12:00:00Z';
const ctx = (over: Partial<RiskContext> = {}): RiskContext => ({
  currency: 'USD',
  equity: 10_000,
  balance: 10_000,
  open_positions: [],
  closed_today: [],
  now: NOW,
  ...over,
});
const order = (over: Partial<OrderRisk> = {}): OrderRisk => ({
  symbol: 'EURUSD',
  volume: 0.5,
  risk: 100,
  ...over,
});

describe('parseCooldown', () => {
  it.each([
    ['00:30:00', 1800],
    ['01:00:00', 3600],
    ['02:15:30', 8130],
    ['24:00:00', 86_400],
    ['00:00:00', 0],
  ])('%s = %i seconds', (text, seconds) => {
    expect(parseCooldown(text)).toBe(seconds);
    expect(isValidCooldown(text)).toBe(true);
  });

  it.each(['1:00:00', '00:60:00', '00:00:60', '00:30', 'aa:bb:cc', '', '00:30:00:00', '-1:00:00'])(
    'rejects "%s"',
    (text) => {
      expect(parseCooldown(text)).toBeNull();
      expect(isValidCooldown(text)).toBe(false);
    },
  );

  it('formats seconds back as HH:MM:SS', () => {
    expect(formatDuration(8130)).toBe('02:15:30');
    expect(formatDuration(899.2)).toBe('00:15:00');
  });
});

describe('evaluateRiskRules: worked cases', () => {
  it('every rule off (null, undefined, 0): allowed', () => {
    const settings: RiskSettings = { max_daily_loss: null, max_trade_risk: undefined, max_open_positions: 0 };
    expect(evaluateRiskRules(settings, ctx(), order({ risk: 5000 }))).toEqual({ allowed: true });
  });

  it('max_trade_risk 1%: 120 USD on 10,000 equity = 1.20% → refused', () => {
    const d = evaluateRiskRules({ max_trade_risk: 1 }, ctx(), order({ risk: 120 }));
    expect(d).toMatchObject({
      allowed: false,
      rule: 'max_trade_risk',
      detail: 'max_trade_risk: this trade risks 1.20% of equity (120.00 USD), above the 1.00% limit.',
    });
  });

  it('max_trade_risk 1%: 100 USD on 10,000 equity = exactly 1.00% → allowed', () => {
    expect(evaluateRiskRules({ max_trade_risk: 1 }, ctx(), order({ risk: 100 })).allowed).toBe(true);
  });

  it('max_daily_loss 3%: realised −150 −50 = 200 + open 50 + order 100 = 350 > 3% of 10,000 start balance (9,800 + 200) = 300 → refused', () => {
    const context = ctx({
      balance: 9_800,
      equity: 9_790,
      open_positions: [{ symbol: 'GBPUSD', open_risk: 50 }],
      closed_today: [
        { profit_loss: -150, closed_at: '2026-11-22T09:00:00Z' },
        { profit_loss: -50, closed_at: '2026-11-22T10:00:00Z' },
      ],
    });
    const d = evaluateRiskRules({ max_daily_loss: 3 }, context, order({ risk: 100 }));
    expect(d).toMatchObject({
      allowed: false,
      rule: 'max_daily_loss',
      detail:
        'max_daily_loss: realised loss today 200.00 USD + open risk 50.00 USD + this trade 100.00 USD = 350.00 USD, above the 3.00% limit of 300.00 USD (of 10000.00 USD balance at the start of the day).',
    });
    // 200 + 50 + 50 = 300: exactly at the limit is allowed.
    expect(evaluateRiskRules({ max_daily_loss: 3 }, context, order({ risk: 50 })).allowed).toBe(true);
  });

  it('max_daily_loss nets today: +300 − 200 = +100 realised, so only open 0 + order 250 counts against 2% of 9,900 = 198 → refused at 250', () => {
    const context = ctx({
      balance: 10_000,
      closed_today: [
        { profit_loss: 300, closed_at: '2026-11-22T09:00:00Z' },
        { profit_loss: -200, closed_at: '2026-11-22T10:00:00Z' },
      ],
    });
    const d = evaluateRiskRules({ max_daily_loss: 2 }, context, order({ risk: 250 }));
    expect(d).toMatchObject({ allowed: false, rule: 'max_daily_loss' });
    expect(d.allowed || d.detail).toContain('realised loss today 0.00 USD');
    expect(d.allowed || d.detail).toContain('limit of 198.00 USD (of 9900.00 USD');
    expect(evaluateRiskRules({ max_daily_loss: 2 }, context, order({ risk: 198 })).allowed).toBe(true);
  });

  it('max_daily_loss uses day_start_balance when given: 5% of 20,000 = 1,000', () => {
    const context = ctx({
      day_start_balance: 20_000,
      open_positions: [{ symbol: 'XAUUSD', open_risk: 950 }],
    });
    expect(evaluateRiskRules({ max_daily_loss: 5 }, context, order({ risk: 50 })).allowed).toBe(true);
    expect(evaluateRiskRules({ max_daily_loss: 5 }, context, order({ risk: 50.01 })).allowed).toBe(false);
  });

  it('max_daily_loss sums money in cents: ten open risks of 0.10 + order 0.30 = 1.30, limit 0.01% of 13,000 = 1.30 → allowed', () => {
    const context = ctx({
      balance: 13_000,
      open_positions: Array.from({ length: 10 }, () => ({ symbol: 'EURUSD', open_risk: 0.1 })),
    });
    expect(evaluateRiskRules({ max_daily_loss: 0.01 }, context, order({ risk: 0.1 + 0.2 })).allowed).toBe(
      true,
    );
  });

  it('max_open_positions 3 with 3 open → refused', () => {
    const context = ctx({
      open_positions: ['EURUSD', 'GBPUSD', 'USDJPY'].map((symbol) => ({ symbol, open_risk: 10 })),
    });
    expect(evaluateRiskRules({ max_open_positions: 3 }, context, order())).toMatchObject({
      allowed: false,
      rule: 'max_open_positions',
      detail: 'max_open_positions: 3 positions are already open, the limit is 3.',
    });
    expect(evaluateRiskRules({ max_open_positions: 4 }, context, order()).allowed).toBe(true);
  });

  it('max_open_trades_same_symbol 1 with one eurusd open (case-insensitive) → refused; another symbol allowed', () => {
    const context = ctx({ open_positions: [{ symbol: 'eurusd', open_risk: 10 }] });
    expect(evaluateRiskRules({ max_open_trades_same_symbol: 1 }, context, order())).toMatchObject({
      allowed: false,
      rule: 'max_open_trades_same_symbol',
      detail: 'max_open_trades_same_symbol: 1 EURUSD trade is already open, the limit is 1.',
    });
    expect(
      evaluateRiskRules({ max_open_trades_same_symbol: 1 }, context, order({ symbol: 'GBPUSD' })).allowed,
    ).toBe(true);
  });

  it('max_lot_size 2: 2.50 lots refused; 0.1 + 0.2 lots against a 0.3 limit allowed', () => {
    expect(evaluateRiskRules({ max_lot_size: 2 }, ctx(), order({ volume: 2.5 }))).toMatchObject({
      allowed: false,
      rule: 'max_lot_size',
      detail: 'max_lot_size: this order is 2.50 lots, above the 2.00 lot limit.',
    });
    expect(evaluateRiskRules({ max_lot_size: 0.3 }, ctx(), order({ volume: 0.1 + 0.2 })).allowed).toBe(true);
  });

  describe('cooldown', () => {
    const settings: RiskSettings = {
      enforce_cooldowns: true,
      consecutive_loss_limit: 3,
      cooldown_period: '01:00:00',
    };
    const losses = [
      { profit_loss: -20, closed_at: '2026-11-22T11:15:00Z' },
      { profit_loss: -10, closed_at: '2026-11-22T10:00:00Z' },
      { profit_loss: -15, closed_at: '2026-11-22T10:30:00Z' },
    ];

    it('3 losses in a row (limit 3), last at 11:15, cooldown 1 h, now 12:00 → refused until 12:15, 00:15:00 from now', () => {
      expect(evaluateRiskRules(settings, ctx({ closed_today: losses }), order())).toMatchObject({
        allowed: false,
        rule: 'cooldown',
        detail:
          'cooldown: 3 consecutive losing trades (limit 3); no new trade until 2026-11-22T12:15:00Z, 00:15:00 from now (cooldown_period 01:00:00).',
      });
    });

    it('at 12:15:00 the cooldown is over → allowed', () => {
      expect(
        evaluateRiskRules(settings, ctx({ closed_today: losses, now: '2026-11-22T12:15:00Z' }), order())
          .allowed,
      ).toBe(true);
    });

    it('now may be epoch ms or a Date', () => {
      const ms = Date.parse('2026-11-22T12:14:59Z');
      expect(evaluateRiskRules(settings, ctx({ closed_today: losses, now: ms }), order()).allowed).toBe(
        false,
      );
      expect(
        evaluateRiskRules(settings, ctx({ closed_today: losses, now: new Date(ms + 1000) }), order()).allowed,
      ).toBe(true);
    });

    it('a win at 10:45 breaks the streak: loss, loss, win, loss → 1 consecutive loss → allowed', () => {
      const mixed = [...losses, { profit_loss: 5, closed_at: '2026-11-22T10:45:00Z' }];
      expect(evaluateRiskRules(settings, ctx({ closed_today: mixed }), order()).allowed).toBe(true);
    });

    it('a breakeven close (0.00) is not a loss', () => {
      const be = [...losses, { profit_loss: 0, closed_at: '2026-11-22T11:30:00Z' }];
      expect(evaluateRiskRules(settings, ctx({ closed_today: be }), order()).allowed).toBe(true);
    });

    it('enforce_cooldowns off (false or 0) → allowed; on as integer 1 (DB boolean) → refused', () => {
      const c = ctx({ closed_today: losses });
      expect(evaluateRiskRules({ ...settings, enforce_cooldowns: false }, c, order()).allowed).toBe(true);
      expect(evaluateRiskRules({ ...settings, enforce_cooldowns: 0 }, c, order()).allowed).toBe(true);
      expect(evaluateRiskRules({ ...settings, enforce_cooldowns: 1 }, c, order()).allowed).toBe(false);
    });

    it('an invalid cooldown_period is an error, not a silent pass', () => {
      expect(() =>
        evaluateRiskRules({ ...settings, cooldown_period: '1h' }, ctx({ closed_today: losses }), order()),
      ).toThrow('cooldown_period must be HH:MM:SS, got "1h".');
    });
  });

  it('reports the first violation and lists all of them', () => {
    const d = evaluateRiskRules(
      { max_lot_size: 1, max_trade_risk: 1, max_open_positions: 1 },
      ctx({ open_positions: [{ symbol: 'GBPUSD', open_risk: 0 }] }),
      order({ volume: 2, risk: 500 }),
    );
    expect(d.allowed).toBe(false);
    if (d.allowed) return;
    expect(d.rule).toBe('max_lot_size');
    expect(d.violations.map((v) => v.rule)).toEqual(['max_lot_size', 'max_trade_risk', 'max_open_positions']);
  });

  it('a JPY account formats money without decimals', () => {
    const d = evaluateRiskRules(
      { max_trade_risk: 1 },
      ctx({ currency: 'JPY', equity: 1_000_000, balance: 1_000_000 }),
      order({ risk: 12_345 }),
    );
    expect(d.allowed || d.detail).toBe(
      'max_trade_risk: this trade risks 1.23% of equity (12345 JPY), above the 1.00% limit.',
    );
  });
});

describe('evaluateRiskRules: monotone in risk', () => {
  const settingsArb = fc.record({
    max_daily_loss: fc.option(fc.double({ min: 0.5, max: 10, noNaN: true }), { nil: null }),
    max_trade_risk: fc.option(fc.double({ min: 0.1, max: 5, noNaN: true }), { nil: null }),
    max_open_positions: fc.option(fc.integer({ min: 1, max: 10 }), { nil: null }),
    max_open_trades_same_symbol: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
    max_lot_size: fc.option(fc.constantFrom(0.5, 1, 5), { nil: null }),
    enforce_cooldowns: fc.boolean(),
    consecutive_loss_limit: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
    cooldown_period: fc.constantFrom('00:30:00', '01:00:00', '00:00:00'),
  });
  const symbolArb = fc.constantFrom('EURUSD', 'GBPUSD', 'XAUUSD');
  const money = fc.integer({ min: 0, max: 200_000 }).map((c) => c / 100);
  const contextArb = fc.record({
    currency: fc.constant('USD'),
    equity: fc.integer({ min: 1_000, max: 100_000 }),
    balance: fc.integer({ min: 1_000, max: 100_000 }),
    open_positions: fc.array(fc.record({ symbol: symbolArb, open_risk: money }), { maxLength: 6 }),
    closed_today: fc.array(
      fc.record({
        profit_loss: fc.integer({ min: -50_000, max: 50_000 }).map((c) => c / 100),
        closed_at: fc
          .integer({ min: 0, max: 11 * 3600 })
          .map((s) => Date.parse('2026-11-22T00:00:00Z') + s * 1000),
      }),
      { maxLength: 6 },
    ),
    now: fc.constant(NOW),
  });
  const orderArb = fc.record({ symbol: symbolArb, volume: fc.constantFrom(0.01, 0.5, 1, 2), risk: money });

  it('more open risk on an existing position never turns a refusal into an allowance', () => {
    fc.assert(
      fc.property(settingsArb, contextArb, orderArb, money, fc.nat(), (settings, context, o, extra, pick) => {
        fc.pre(context.open_positions.length > 0);
        const i = pick % context.open_positions.length;
        const more = {
          ...context,
          open_positions: context.open_positions.map((p, j) =>
            j === i ? { ...p, open_risk: p.open_risk + extra } : p,
          ),
        };
        if (!evaluateRiskRules(settings, context, o).allowed) {
          expect(evaluateRiskRules(settings, more, o).allowed).toBe(false);
        }
      }),
    );
  });

  it('another open position never turns a refusal into an allowance', () => {
    fc.assert(
      fc.property(
        settingsArb,
        contextArb,
        orderArb,
        symbolArb,
        money,
        (settings, context, o, symbol, risk) => {
          const more = {
            ...context,
            open_positions: [...context.open_positions, { symbol, open_risk: risk }],
          };
          if (!evaluateRiskRules(settings, context, o).allowed) {
            expect(evaluateRiskRules(settings, more, o).allowed).toBe(false);
          }
        },
      ),
    );
  });

  it('more risk on the order itself never turns a refusal into an allowance', () => {
    fc.assert(
      fc.property(settingsArb, contextArb, orderArb, money, (settings, context, o, extra) => {
        if (!evaluateRiskRules(settings, context, o).allowed) {
          expect(evaluateRiskRules(settings, context, { ...o, risk: o.risk + extra }).allowed).toBe(false);
        }
      }),
    );
  });
});
