import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { marketState, STALE_AFTER_MS, tradingBlockedReason, type MarketStateInput } from './market-state';

const NOW = Date.parse('2026-01-10T12:00:00Z');
const SUNDAY_OPEN = Date.parse('2026-01-11T22:00:00Z');
const closed = { open: false, nextOpenMs: SUNDAY_OPEN, nextCloseMs: null };
const open = { open: true, nextOpenMs: null, nextCloseMs: Date.parse('2026-01-16T22:00:00Z') };

describe('marketState', () => {
  it.each<[string, MarketStateInput, ReturnType<typeof marketState>]>([
    [
      'a fresh tick on an open market',
      { nowMs: NOW, session: open, lastQuoteAtMs: NOW - 250 },
      { kind: 'open' },
    ],
    [
      'the broker says closed, though a quote just arrived (the last one before the close)',
      { nowMs: NOW, session: closed, lastQuoteAtMs: NOW },
      { kind: 'closed', nextOpenMs: SUNDAY_OPEN },
    ],
    [
      'no tick for 31 s on an open market',
      { nowMs: NOW, session: open, lastQuoteAtMs: NOW - 31_000 },
      { kind: 'stale', quietForMs: 31_000 },
    ],
    [
      'exactly 30 s is still open',
      { nowMs: NOW, session: open, lastQuoteAtMs: NOW - 30_000 },
      { kind: 'open' },
    ],
    [
      'no session known (MT5): staleness alone tells',
      { nowMs: NOW, session: null, lastQuoteAtMs: NOW - 120_000 },
      { kind: 'stale', quietForMs: 120_000 },
    ],
    ['no quote yet', { nowMs: NOW, session: open, lastQuoteAtMs: null }, { kind: 'waiting' }],
    [
      'the broker is down: its reason wins over everything',
      { nowMs: NOW, session: closed, lastQuoteAtMs: NOW, unavailableReason: 'MT5 bridge unreachable.' },
      { kind: 'unavailable', reason: 'MT5 bridge unreachable.' },
    ],
    [
      'a custom threshold',
      { nowMs: NOW, lastQuoteAtMs: NOW - 5_001, staleAfterMs: 5_000 },
      { kind: 'stale', quietForMs: 5_001 },
    ],
  ])('%s', (_, input, expected) => {
    expect(marketState(input)).toEqual(expected);
  });

  it('is never open while the broker says closed, whatever the ticks', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 9 }),
        fc.option(fc.integer({ min: 0, max: 10 ** 9 })),
        (now, q) => {
          expect(marketState({ nowMs: now, session: closed, lastQuoteAtMs: q }).kind).toBe('closed');
        },
      ),
    );
  });

  it('turns stale only after the threshold on an open market', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * STALE_AFTER_MS }), (quiet) => {
        const kind = marketState({ nowMs: NOW, session: open, lastQuoteAtMs: NOW - quiet }).kind;
        expect(kind).toBe(quiet > STALE_AFTER_MS ? 'stale' : 'open');
      }),
    );
  });
});

describe('tradingBlockedReason', () => {
  it('blocks a closed market with the spec text and an unavailable broker with its reason', () => {
    expect(tradingBlockedReason({ kind: 'closed', nextOpenMs: SUNDAY_OPEN }, 'EURUSD')).toBe(
      'The market for EURUSD is closed.',
    );
    expect(tradingBlockedReason({ kind: 'unavailable', reason: 'Bridge down.' }, 'EURUSD')).toBe(
      'Bridge down.',
    );
    expect(tradingBlockedReason({ kind: 'stale', quietForMs: 40_000 }, 'EURUSD')).toBeNull();
    expect(tradingBlockedReason({ kind: 'open' }, 'EURUSD')).toBeNull();
  });
});
