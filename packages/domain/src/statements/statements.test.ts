import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fileDeals, impliedRisk, type StatementDeal } from './statement-trades';
import { wallClockToUtc, isStatementZone, FX_SERVER_ZONE } from './statement-time';
import { symbolMapper } from './statement-symbols';

const T0 = Date.UTC(2024, 0, 15, 10, 0, 0);
const deal = (over: Partial<StatementDeal>): StatementDeal => ({
  deal_id: '1',
  order_id: '',
  position_id: null,
  symbol: 'EURUSD',
  side: 'BUY',
  entry: 'IN',
  volume: 1,
  price: 1.1,
  profit: 0,
  commission: 0,
  swap: 0,
  time: T0,
  comment: '',
  ...over,
});

describe('fileDeals', () => {
  it('pairs closing deals first in, first out, with a partial close, and sums money', () => {
    const { trades, orphans } = fileDeals([
      deal({ deal_id: '10', order_id: '100', volume: 1, price: 1.1, commission: -3.5 }),
      deal({ deal_id: '11', order_id: '101', volume: 0.5, price: 1.2, time: T0 + 1000 }),
      // Closes 0.4 of position 100 (the oldest), then the rest of it, then position 101.
      deal({
        deal_id: '12',
        side: 'SELL',
        entry: 'OUT',
        volume: 0.4,
        price: 1.11,
        profit: 40,
        time: T0 + 2000,
      }),
      deal({
        deal_id: '13',
        side: 'SELL',
        entry: 'OUT',
        volume: 0.6,
        price: 1.12,
        profit: 120,
        swap: -1.25,
        commission: -3.5,
        time: T0 + 3000,
      }),
      deal({
        deal_id: '14',
        side: 'SELL',
        entry: 'OUT',
        volume: 0.5,
        price: 1.19,
        profit: -50,
        time: T0 + 4000,
      }),
      // Opened before the statement's first day: no opening deal.
      deal({
        deal_id: '15',
        symbol: 'GBPUSD',
        side: 'BUY',
        entry: 'OUT',
        volume: 1,
        price: 1.3,
        time: T0 + 5000,
      }),
    ]);
    expect(orphans.map((d) => d.deal_id)).toEqual(['15']);
    expect(trades).toHaveLength(2);
    const [a, b] = trades;
    expect(a).toMatchObject({
      position_id: '100',
      direction: 'BUY',
      volume: 1,
      closed_volume: 1,
      open_time: T0,
      close_time: T0 + 3000,
      profit: 160,
      commission: -7,
      swap: -1.25,
    });
    // (0.4 × 1.11 + 0.6 × 1.12) / 1 = 1.116
    expect(a!.close_price).toBeCloseTo(1.116, 10);
    expect(b).toMatchObject({ position_id: '101', volume: 0.5, close_time: T0 + 4000, profit: -50 });
  });

  it('keeps the position a deal names, and a position not fully closed stays open', () => {
    const { trades } = fileDeals([
      deal({ deal_id: '1', position_id: 'P1', volume: 2 }),
      deal({
        deal_id: '2',
        position_id: 'P1',
        side: 'SELL',
        entry: 'OUT',
        volume: 1,
        price: 1.2,
        profit: 100,
        time: T0 + 1,
      }),
    ]);
    expect(trades[0]).toMatchObject({
      position_id: 'P1',
      closed_volume: 1,
      close_time: null,
      close_price: 1.2,
    });
  });

  it('never loses or invents volume (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 4 })), {
          minLength: 1,
          maxLength: 12,
        }),
        (specs) => {
          const deals: StatementDeal[] = [];
          let t = T0;
          specs.forEach(([lots, parts], i) => {
            deals.push(deal({ deal_id: `in${i}`, order_id: `o${i}`, volume: lots / 100, time: (t += 1000) }));
            const each = Math.floor(lots / parts);
            for (let p = 0; p < parts; p++) {
              const v = p === parts - 1 ? lots - each * (parts - 1) : each;
              if (v > 0)
                deals.push(
                  deal({
                    deal_id: `out${i}-${p}`,
                    side: 'SELL',
                    entry: 'OUT',
                    volume: v / 100,
                    time: (t += 1000),
                  }),
                );
            }
          });
          const { trades, orphans } = fileDeals(deals);
          expect(orphans).toEqual([]);
          expect(
            trades.every((x) => x.close_time !== null && Math.abs(x.volume - x.closed_volume) < 1e-9),
          ).toBe(true);
          expect(trades.reduce((s, x) => s + x.deals.length, 0)).toBe(deals.length);
        },
      ),
    );
  });
});

describe('impliedRisk', () => {
  const trade = (over: Partial<Parameters<typeof impliedRisk>[0]>) => ({
    ...fileDeals([
      deal({ volume: 1, price: 1.1 }),
      deal({ deal_id: '2', side: 'SELL', entry: 'OUT', volume: 1, price: 1.102, profit: 200, time: T0 + 1 }),
    ]).trades[0]!,
    ...over,
  });
  it('reads the value of a price unit from the trade: 20 pips made 200, a 10-pip stop risked 100', () => {
    expect(impliedRisk(trade({ stop_loss: 1.099 }))).toBe(100);
  });
  it('is null without a stop, with a stop in profit, or when the price did not move', () => {
    expect(impliedRisk(trade({ stop_loss: null }))).toBeNull();
    expect(impliedRisk(trade({ stop_loss: 1.101 }))).toBeNull();
    expect(impliedRisk(trade({ stop_loss: 1.099, close_price: 1.1 }))).toBeNull();
  });
  it('works for a sell: entry 1.3, close 1.29 made 100 on 0.1 lots, stop 1.305 risked 50', () => {
    const t = fileDeals([
      deal({ side: 'SELL', volume: 0.1, price: 1.3 }),
      deal({ deal_id: '2', side: 'BUY', entry: 'OUT', volume: 0.1, price: 1.29, profit: 100, time: T0 + 1 }),
    ]).trades[0]!;
    expect(impliedRisk({ ...t, stop_loss: 1.305 })).toBe(50);
  });
});

describe('wallClockToUtc', () => {
  it('converts with IANA zones and the FX server clock (NY + 7)', () => {
    const local = Date.UTC(2024, 0, 15, 12, 0); // winter
    expect(new Date(wallClockToUtc(local, 'UTC')).toISOString()).toBe('2024-01-15T12:00:00.000Z');
    expect(new Date(wallClockToUtc(local, 'Europe/Athens')).toISOString()).toBe('2024-01-15T10:00:00.000Z');
    expect(new Date(wallClockToUtc(local, FX_SERVER_ZONE)).toISOString()).toBe('2024-01-15T10:00:00.000Z');
    const summer = Date.UTC(2024, 6, 15, 12, 0);
    expect(new Date(wallClockToUtc(summer, FX_SERVER_ZONE)).toISOString()).toBe('2024-07-15T09:00:00.000Z');
    // Between the US (10 March) and the EU (31 March) clock change: FX is UTC+3, Athens still UTC+2.
    const gap = Date.UTC(2024, 2, 20, 12, 0);
    expect(new Date(wallClockToUtc(gap, FX_SERVER_ZONE)).toISOString()).toBe('2024-03-20T09:00:00.000Z');
    expect(new Date(wallClockToUtc(gap, 'Europe/Athens')).toISOString()).toBe('2024-03-20T10:00:00.000Z');
    expect(new Date(wallClockToUtc(local, 'Etc/GMT-3')).toISOString()).toBe('2024-01-15T09:00:00.000Z');
  });
  it('knows zones', () => {
    expect(isStatementZone('FX')).toBe(true);
    expect(isStatementZone('Europe/London')).toBe(true);
    expect(isStatementZone('Mars/Base')).toBe(false);
  });
});

describe('symbolMapper', () => {
  it("maps suffixes to the account's own spelling", () => {
    const map = symbolMapper(['EURUSD', 'GBPUSD.m', 'XAUUSD']);
    expect(map('eurusd.pro')).toEqual({ symbol: 'EURUSD', known: true });
    expect(map('GBPUSD#')).toEqual({ symbol: 'GBPUSD.m', known: true });
    expect(map('EURUSD')).toEqual({ symbol: 'EURUSD', known: true });
    expect(map('XAUUSD-ECN')).toEqual({ symbol: 'XAUUSD', known: true });
    expect(map('US30.cash')).toEqual({ symbol: 'US30', known: false });
  });
});
