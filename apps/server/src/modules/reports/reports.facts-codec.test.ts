import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  isoMs,
  TRADE_BOT,
  TRADE_JOURNALED,
  TRADE_SELL,
  TRADE_WITH_REASON,
  TRADE_WITH_SNAPSHOT,
} from '@tradedesk/domain';
import { decodeFacts, decodeTradeData, encodeFacts } from './reports.facts-codec';
import type { FactTrade } from './reports.model';

const base: FactTrade = {
  id: 't1',
  symbol: 'EURUSD',
  direction: 'BUY',
  opened_at: '2026-02-02T10:00:00.000Z',
  closed_at: '2026-02-02T11:00:00.000Z',
  pnl_minor: 120,
  initial_risk_minor: 100,
  trader: '',
  bot: false,
  strategy_tag: null,
  emotional_state: null,
  market_condition: null,
  journaled: false,
  with_snapshot: false,
  with_reason: false,
  entry_price: 1.1,
  stop_distance: 0.005,
};

/** Every value a report reads back from the blobs, trade by trade, as the trades had it. */
function roundTrip(trades: FactTrade[]) {
  const { data, tradeData } = encodeFacts(trades);
  // pg hands blobs out at any offset of a shared buffer: read them from an odd one too.
  const shifted = (b: Uint8Array) => {
    const at = new Uint8Array(new ArrayBuffer(b.length + 3), 3, b.length);
    at.set(b);
    return at;
  };
  for (const [f, d] of [
    [decodeFacts(data), decodeTradeData(tradeData)],
    [decodeFacts(shifted(data)), decodeTradeData(shifted(tradeData))],
  ] as const) {
    expect(f.n).toBe(trades.length);
    trades.forEach((t, i) => {
      const text = (code: number) => f.texts[code] ?? null;
      const closed = f.closedText.get(i) ?? new Date(f.closedMs[i]!).toISOString();
      const opened = d.openedText.get(i) ?? new Date(f.openedMs[i]!).toISOString();
      expect({
        id: d.ids[i],
        symbol: text(f.symbol[i]!),
        direction: f.flags[i]! & TRADE_SELL ? 'SELL' : 'BUY',
        opened_at: opened,
        closed_at: closed,
        pnl_minor: f.pnl[i],
        initial_risk_minor: Number.isNaN(f.risk[i]!) ? null : f.risk[i],
        trader: text(f.trader[i]!),
        bot: (f.flags[i]! & TRADE_BOT) !== 0,
        strategy_tag: text(f.strategyTag[i]!),
        emotional_state: text(f.emotionalState[i]!),
        market_condition: text(f.marketCondition[i]!),
        journaled: (f.flags[i]! & TRADE_JOURNALED) !== 0,
        with_snapshot: (f.flags[i]! & TRADE_WITH_SNAPSHOT) !== 0,
        with_reason: (f.flags[i]! & TRADE_WITH_REASON) !== 0,
        entry_price: Number.isNaN(d.entry[i]!) ? null : d.entry[i],
        stop_distance: Number.isNaN(d.stopDistance[i]!) ? null : d.stopDistance[i],
      }).toEqual(t);
      expect([f.closedMs[i], f.openedMs[i]]).toEqual([isoMs(t.closed_at), isoMs(t.opened_at)]);
    });
  }
  return data.length;
}

describe('report facts codec', () => {
  it('gives back every field of a month of trades, in the narrow forms where they fit', () => {
    const month = Array.from({ length: 500 }, (_, i): FactTrade => {
      const closed = Date.parse('2026-02-01T00:00:00Z') + i * 4_000_000;
      return {
        ...base,
        id: `t${i}`,
        symbol: ['EURUSD', 'GBPUSD', 'US30'][i % 3]!,
        direction: i % 2 ? 'SELL' : 'BUY',
        opened_at: new Date(closed - (i % 7) * 3_600_000).toISOString(),
        closed_at: new Date(closed).toISOString(),
        pnl_minor: ((i * 7919) % 4000) - 2000,
        initial_risk_minor: i % 11 ? 1000 : null,
        trader: i % 5 ? 'Ann' : '',
        bot: i % 13 === 0,
        strategy_tag: i % 3 ? 'breakout' : null,
        emotional_state: i % 4 ? 'calm' : null,
        market_condition: i % 6 ? 'trending' : null,
        journaled: i % 3 !== 0,
        with_snapshot: i % 9 === 0,
        with_reason: i % 2 === 0,
        entry_price: i % 17 ? 1.1 + i / 1e5 : null,
        stop_distance: i % 19 ? 0.002 : null,
      };
    });
    // u32 closings and openings, int32 money, u8 codes and flags: 22 bytes a trade, plus texts.
    expect(roundTrip(month)).toBeLessThan(40 + 500 * 22 + 200);
    expect(roundTrip([])).toBeGreaterThan(0);
  });

  it('keeps what does not fit exactly: instants in other forms, long holds, large money, many texts', () => {
    const odd: FactTrade[] = [
      { ...base, id: 'a', closed_at: '2026-02-02T11:00:00Z', opened_at: '2026-02-02T10:00:00+01:00' },
      // Held for 400 days; money beyond int32; a fractional risk.
      {
        ...base,
        id: 'b',
        opened_at: '2025-01-01T00:00:00.000Z',
        pnl_minor: 5_000_000_000,
        initial_risk_minor: 0.5,
      },
      { ...base, id: 'c', closed_at: 'not a time', opened_at: 'nor this' },
      ...Array.from({ length: 300 }, (_, i) => ({ ...base, id: `d${i}`, trader: `trader ${i}` })),
    ];
    roundTrip(odd);
  });

  it('gives back any trades exactly (property)', () => {
    const instant = fc
      .integer({ min: Date.parse('2000-01-01T00:00:00Z'), max: Date.parse('2040-01-01T00:00:00Z') })
      .map((ms) => new Date(ms).toISOString());
    const text = fc.option(fc.string({ maxLength: 6 }), { nil: null });
    const trade = fc.record({
      id: fc.uuid(),
      symbol: fc.constantFrom('EURUSD', 'XAUUSD', 'GER40'),
      direction: fc.constantFrom('BUY' as const, 'SELL' as const),
      opened_at: instant,
      closed_at: instant,
      pnl_minor: fc.integer({ min: -1e12, max: 1e12 }),
      initial_risk_minor: fc.option(fc.integer({ min: -10, max: 1e9 }), { nil: null }),
      trader: fc.string({ maxLength: 4 }),
      bot: fc.boolean(),
      strategy_tag: text,
      emotional_state: text,
      market_condition: text,
      journaled: fc.boolean(),
      with_snapshot: fc.boolean(),
      with_reason: fc.boolean(),
      entry_price: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null }),
      stop_distance: fc.option(fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(trade, { maxLength: 40 }), (trades) => {
        roundTrip(
          trades.sort((x, y) => (x.closed_at < y.closed_at ? -1 : x.closed_at > y.closed_at ? 1 : 0)),
        );
      }),
      { numRuns: 200 },
    );
  });
});
