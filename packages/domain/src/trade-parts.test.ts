import { describe, expect, it } from 'vitest';
import { tradeParts, type TradeFill } from './trade-parts';

const fill = (
  entry: 'IN' | 'OUT',
  volume: number,
  time: string,
  reason = 'CLOSE',
  profit = 0,
): TradeFill => ({
  entry,
  volume,
  price: 1.1,
  profit,
  time,
  reason,
});

describe('tradeParts', () => {
  it('a 0.10 trade partly closed to 0.06 (worked case of the issue)', () => {
    const p = tradeParts(0.1, [
      fill('IN', 0.1, '2026-01-07T10:00:00Z', 'MARKET'),
      fill('OUT', 0.04, '2026-01-07T11:00:00Z', 'PARTIAL_CLOSE', 12.5),
    ]);
    expect(p).toMatchObject({ initialLots: 0.1, closedLots: 0.04, openLots: 0.06, partiallyClosed: true });
    expect(p.parts).toEqual([
      {
        lots: 0.04,
        price: 1.1,
        profit: 12.5,
        time: '2026-01-07T11:00:00Z',
        reason: 'PARTIAL_CLOSE',
        lotsLeft: 0.06,
      },
    ]);
  });

  it('closed in three parts, given out of order, lists them in time order down to zero', () => {
    const p = tradeParts(0.3, [
      fill('OUT', 0.1, '2026-01-07T13:00:00Z', 'CLOSE'),
      fill('IN', 0.3, '2026-01-07T10:00:00Z', 'MARKET'),
      fill('OUT', 0.1, '2026-01-07T11:00:00Z', 'TARGET'),
      fill('OUT', 0.1, '2026-01-07T12:00:00Z', 'TARGET'),
    ]);
    expect(p.parts.map((x) => [x.reason, x.lotsLeft])).toEqual([
      ['TARGET', 0.2],
      ['TARGET', 0.1],
      ['CLOSE', 0],
    ]);
    expect(p).toMatchObject({ closedLots: 0.3, openLots: 0, partiallyClosed: true });
  });

  it('a trade closed at once, or still fully open, is not partly closed', () => {
    expect(tradeParts(0.1, [fill('IN', 0.1, 'a'), fill('OUT', 0.1, 'b')]).partiallyClosed).toBe(false);
    const open = tradeParts(0.1, [fill('IN', 0.1, '2026-01-07T10:00:00Z')]);
    expect(open).toMatchObject({ closedLots: 0, openLots: 0.1, parts: [], partiallyClosed: false });
  });
});
