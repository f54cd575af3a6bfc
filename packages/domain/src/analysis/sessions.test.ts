import { describe, expect, it } from 'vitest';
import { DAY, MONDAY, seriesOf, sessionBars } from '../testing/synthetic-candles';
import { checkSessions, consecutiveTransitions, sessionInstances, transitionPairs } from './sessions';

const halves = [
  { name: 'Morning', startHour: 0, endHour: 12 },
  { name: 'Afternoon', startHour: 12, endHour: 24 },
];

describe('sessions', () => {
  it('builds one instance per day and session with its open, close, high, low and direction', () => {
    const s = seriesOf([
      ...sessionBars(MONDAY, 0, 12, 100, 103),
      ...sessionBars(MONDAY, 12, 24, 103, 103),
      ...sessionBars(MONDAY + DAY, 0, 12, 103, 101),
    ]);
    const inst = sessionInstances(s, halves);
    expect(inst.map((i) => [i.session, i.day - MONDAY / DAY, i.open, i.close, i.direction])).toEqual([
      [0, 0, 100, 103, 1],
      [1, 0, 103, 103, 0],
      [0, 1, 103, 101, -1],
    ]);
    expect(inst[0]!.high).toBeCloseTo(103.01, 10);
    expect(inst[0]!.low).toBeCloseTo(99.99, 10);
    expect([inst[0]!.firstBar, inst[0]!.lastBar]).toEqual([0, 11]);
  });

  it('pairs each session with the next, the last with the next day’s first, across a weekend but not a gap', () => {
    const friday = MONDAY + 4 * DAY;
    const s = seriesOf([
      ...sessionBars(friday, 12, 24, 100, 101),
      ...sessionBars(friday + 3 * DAY, 0, 12, 101, 102), // Monday
      ...sessionBars(friday + 3 * DAY, 12, 24, 102, 103),
      ...sessionBars(friday + 8 * DAY, 0, 12, 103, 104), // five days later
    ]);
    const inst = sessionInstances(s, halves);
    const [toMorning, toAfternoon] = [
      consecutiveTransitions(halves).find((t) => t.from === 1)!,
      consecutiveTransitions(halves).find((t) => t.from === 0)!,
    ];
    expect(transitionPairs(inst, toMorning).map(([a, b]) => [a.open, b.open])).toEqual([[100, 101]]);
    expect(transitionPairs(inst, toAfternoon).map(([a, b]) => [a.open, b.open])).toEqual([[101, 102]]);
  });

  it('refuses sessions that end before they start or leave the day', () => {
    expect(() => checkSessions([{ name: 'A', startHour: 5, endHour: 2 }, halves[1]!])).toThrow(
      /must start before it ends/,
    );
    expect(() => checkSessions([{ name: 'A', startHour: 0, endHour: 25 }, halves[1]!])).toThrow(RangeError);
    expect(() => checkSessions([halves[0]!])).toThrow(/two sessions/);
  });
});
