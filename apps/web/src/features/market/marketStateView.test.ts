import { describe, expect, it } from 'vitest';
import { formatOpensAt, marketStateView } from './marketStateView';

const NOW = Date.parse('2026-06-27T12:00:00Z'); // a Saturday
const closed = { open: false, next_open: '2026-06-28T22:00:00.000Z', next_close: null };
const open = { open: true, next_open: null, next_close: '2026-07-03T22:00:00.000Z' };

describe('marketStateView', () => {
  it("a closed market blocks trading with the spec's text and says when it opens in the trader's zone", () => {
    const v = marketStateView({
      symbol: 'EURUSD',
      nowMs: NOW,
      session: closed,
      receivedAt: NOW,
      unavailable: null,
      timeZone: 'Asia/Tokyo',
    });
    expect(v.label).toBe('Closed');
    expect(v.blocked).toBe('The market for EURUSD is closed.');
    // Sunday 22:00 UTC is Monday 07:00 in Tokyo.
    expect(v.detail).toBe(
      `Market closed. Opens ${formatOpensAt(Date.parse(closed.next_open), 'Asia/Tokyo')}.`,
    );
    expect(formatOpensAt(Date.parse(closed.next_open), 'Asia/Tokyo')).toMatch(/Mon.*29.*07:00/);
  });

  it('a quiet open market reads stale but still trades; a down broker blocks with its reason', () => {
    const stale = marketStateView({
      symbol: 'EURUSD',
      nowMs: NOW,
      session: open,
      receivedAt: NOW - 45_000,
      unavailable: null,
    });
    expect(stale).toMatchObject({ label: 'Stale', blocked: null });
    expect(stale.detail).toBe('No new price for 45 s: the price shown may be out of date.');
    const down = marketStateView({
      symbol: 'EURUSD',
      nowMs: NOW,
      session: null,
      receivedAt: null,
      unavailable: 'Bridge down.',
    });
    expect(down).toMatchObject({ label: 'Unavailable', blocked: 'Bridge down.', detail: 'Bridge down.' });
    const live = marketStateView({
      symbol: 'EURUSD',
      nowMs: NOW,
      session: open,
      receivedAt: NOW - 200,
      unavailable: null,
    });
    expect(live).toMatchObject({ label: 'Open', blocked: null, detail: null });
  });
});
