import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { breakdownsOf, SESSIONS, WEEKDAY_NAMES } from './breakdowns';
import { calendarOf } from './calendar';
import { columnsOf } from './columns';
import type { ReportTrade } from './figures';
import { zoneOffset } from './time-zone';

/** Wall-clock parts of an instant in a zone, straight from Intl (what the fast paths must agree with). */
function intlParts(timeZone: string, ms: number) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      weekday: 'long',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    hour: Number(parts.hour),
    weekday: parts.weekday!,
  };
}

// Days when clocks change (and a day either side), in zones with whole, half and three-quarter hours.
const CHANGES = [
  '2026-03-08T10:00:00Z', // New York spring forward
  '2026-03-29T01:00:00Z', // London
  '2026-04-05T16:00:00Z', // Sydney falls back (UTC)
  '2026-10-04T16:00:00Z', // Sydney springs forward
  '2026-10-25T01:00:00Z', // London falls back
  '2026-11-01T06:00:00Z', // New York falls back
  '2026-04-04T15:00:00Z', // Lord Howe (half an hour)
].map(Date.parse);
const ZONES = [
  'UTC',
  'Europe/London',
  'America/New_York',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Asia/Kolkata',
];

const instant = fc.oneof(
  fc.integer({ min: Date.parse('2020-01-01T00:00:00Z'), max: Date.parse('2030-01-01T00:00:00Z') }),
  fc
    .tuple(fc.constantFrom(...CHANGES), fc.integer({ min: -36 * 3_600_000, max: 36 * 3_600_000 }))
    .map(([c, d]) => c + d),
);

const trade = (id: number, opened: number, closed: number, pnl: number): ReportTrade => ({
  id: String(id),
  symbol: 'EURUSD',
  direction: 'BUY',
  opened_at: new Date(opened).toISOString(),
  closed_at: new Date(closed).toISOString(),
  pnl_minor: pnl,
  initial_risk_minor: 100,
  trader: '',
  strategy_tag: null,
  emotional_state: null,
  market_condition: null,
  journaled: false,
  with_snapshot: false,
  with_reason: false,
});

describe('time zones read once a day, not once a trade', () => {
  it('gives the offset Intl gives at any instant, on the days clocks change too', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.array(instant, { minLength: 1, maxLength: 30 }),
        (zone, times) => {
          const offset = zoneOffset(zone);
          for (const ms of times) {
            const local = intlParts(zone, ms);
            const shifted = new Date(ms + offset(ms)).toISOString();
            expect([shifted.slice(0, 10), Number(shifted.slice(11, 13))]).toEqual([local.date, local.hour]);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('puts every trade in the weekday, hour, sessions and calendar day Intl gives', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.array(
          fc.tuple(instant, fc.integer({ min: 0, max: 3 * 86_400_000 }), fc.integer({ min: -500, max: 500 })),
          {
            minLength: 1,
            maxLength: 40,
          },
        ),
        (zone, rows) => {
          const trades = rows
            .map(([opened, held, pnl], i) => trade(i, opened, opened + held, pnl))
            .sort((a, b) => (a.closed_at < b.closed_at ? -1 : a.closed_at > b.closed_at ? 1 : 0));
          const c = columnsOf(trades);
          const b = breakdownsOf(c, ['weekday', 'hour', 'session'], { timeZone: zone });
          const count = (rowsOf: { key: string; trades: number }[]) =>
            Object.fromEntries(rowsOf.map((r) => [r.key, r.trades]));
          const tally = (keys: string[]) => {
            const out: Record<string, number> = {};
            for (const k of keys) out[k] = (out[k] ?? 0) + 1;
            return out;
          };
          const entries = trades.map((t) => Date.parse(t.opened_at));
          expect(count(b.weekday)).toEqual(tally(entries.map((ms) => intlParts(zone, ms).weekday)));
          expect(count(b.hour)).toEqual(
            tally(entries.map((ms) => `${String(intlParts(zone, ms).hour).padStart(2, '0')}:00`)),
          );
          const sessionsOf = (ms: number) => {
            const open = SESSIONS.filter((s) => {
              const p = intlParts(s.timeZone, ms);
              return WEEKDAY_NAMES.indexOf(p.weekday) < 5 && p.hour >= s.fromHour && p.hour < s.toHour;
            }).map((s) => s.name);
            return open.length ? open : ['Outside sessions'];
          };
          expect(count(b.session)).toEqual(tally(entries.flatMap(sessionsOf)));
          const days = calendarOf(c, zone).days.map((d) => [d.key, d.trades]);
          const expected = tally(trades.map((t) => intlParts(zone, Date.parse(t.closed_at)).date));
          expect(Object.fromEntries(days)).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });
});
