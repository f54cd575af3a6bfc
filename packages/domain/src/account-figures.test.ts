import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { accountFigures, dayStartIn, isTimeZone, realisedPlMinor } from './account-figures';

describe('accountFigures', () => {
  it.each([
    // balance, equity, margin, currency → free margin, margin level, open P/L
    [10_000, 10_000, 0, 'USD', 10_000, null, 0],
    [10_000, 10_125.5, 1_085.3, 'USD', 9_040.2, 932.97, 125.5],
    [10_000, 9_800.01, 2_000, 'USD', 7_800.01, 490, -199.99],
    [1_000, 400, 500, 'USD', -100, 80, -600],
    [1_500_000, 1_498_765, 120_000, 'JPY', 1_378_765, 1_248.97, -1_235],
    [0.1 + 0.2, 0.3, 0.1, 'USD', 0.2, 300, 0],
  ])(
    'balance %d, equity %d, margin %d %s → free %d, level %s, open %d',
    (balance, equity, margin, currency, free, level, open) => {
      expect(accountFigures({ balance, equity, margin, currency })).toEqual({
        balance: Math.round(balance * 100) / 100,
        equity,
        margin,
        free_margin: free,
        margin_level: level,
        open_pl: open,
      });
    },
  );

  it('equity is balance plus open P/L and margin plus free margin, to the cent', () => {
    const cents = fc.integer({ min: -10_000_000_00, max: 10_000_000_00 });
    fc.assert(
      fc.property(cents, cents, fc.nat(1_000_000_00), (b, e, m) => {
        const f = accountFigures({ balance: b / 100, equity: e / 100, margin: m / 100, currency: 'USD' });
        expect(Math.round((f.balance + f.open_pl) * 100)).toBe(e);
        expect(Math.round((f.margin + f.free_margin) * 100)).toBe(e);
        if (m === 0) expect(f.margin_level).toBeNull();
        else expect(f.margin_level).toBeCloseTo((e / m) * 100, 2);
      }),
    );
  });
});

describe('realisedPlMinor', () => {
  it('sums profit, commission and swap of every fill', () => {
    expect(realisedPlMinor([])).toBe(0);
    expect(
      realisedPlMinor([
        { profit_minor: 0, commission_minor: -350, swap_minor: 0 },
        { profit_minor: 12_345, commission_minor: -350, swap_minor: -12 },
        { profit_minor: -5_000, commission_minor: -175, swap_minor: 0 },
      ]),
    ).toBe(6_458);
  });
});

describe('dayStartIn', () => {
  const at = (iso: string) => Date.parse(iso);
  it.each([
    ['2026-06-29T10:30:00Z', 'UTC', '2026-06-29T00:00:00Z'],
    ['2026-06-29T00:00:00Z', 'UTC', '2026-06-29T00:00:00Z'],
    ['2026-06-29T10:30:00Z', 'Europe/Berlin', '2026-06-28T22:00:00Z'],
    ['2026-06-29T21:59:59Z', 'Europe/Berlin', '2026-06-28T22:00:00Z'],
    ['2026-06-29T22:00:00Z', 'Europe/Berlin', '2026-06-29T22:00:00Z'],
    ['2026-06-29T02:00:00Z', 'America/New_York', '2026-06-28T04:00:00Z'],
    ['2026-06-29T20:00:00Z', 'Asia/Kolkata', '2026-06-29T18:30:00Z'],
    // Berlin moves from CET to CEST at 02:00 on 29 March 2026: the day began at midnight CET.
    ['2026-03-29T20:00:00Z', 'Europe/Berlin', '2026-03-28T23:00:00Z'],
    // New York moves back to EST on 1 November 2026: the day began at midnight EDT.
    ['2026-11-01T20:00:00Z', 'America/New_York', '2026-11-01T04:00:00Z'],
  ])('%s in %s began at %s', (t, zone, start) => {
    expect(dayStartIn(at(t), zone)).toBe(at(start));
  });

  it('is never after t and less than a day (plus an hour of DST) before it', () => {
    const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Sydney'];
    fc.assert(
      fc.property(
        fc.integer({ min: at('2020-01-01T00:00:00Z'), max: at('2030-01-01T00:00:00Z') }),
        fc.constantFrom(...zones),
        (t, zone) => {
          const start = dayStartIn(t, zone);
          expect(start).toBeLessThanOrEqual(t);
          expect(t - start).toBeLessThan(25 * 3_600_000);
        },
      ),
    );
  });
});

describe('isTimeZone', () => {
  it.each([
    ['Europe/Berlin', true],
    ['UTC', true],
    ['Mars/Olympus', false],
    ['', false],
    ['x'.repeat(80), false],
  ])('%s → %s', (zone, ok) => {
    expect(isTimeZone(zone)).toBe(ok);
  });
});
