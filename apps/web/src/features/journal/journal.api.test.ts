import { describe, expect, it } from 'vitest';
import {
  addSymbol,
  DEFAULT_SNAPSHOT_SYMBOLS,
  DEFAULT_SNAPSHOT_TIMEFRAMES,
  SNAPSHOT_TIMEFRAMES,
  snapshotError,
} from './journal.api';

describe('automated snapshot choices', () => {
  it('defaults are the spec lists', () => {
    expect(DEFAULT_SNAPSHOT_SYMBOLS).toEqual(['USDJPY', 'AUDUSD', 'EURUSD', 'GBPUSD', 'XAUUSD', 'US100']);
    expect(DEFAULT_SNAPSHOT_TIMEFRAMES).toEqual(['5m', '15m', '1h', '4h', '1D']);
    expect(SNAPSHOT_TIMEFRAMES).toEqual(['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '1D', '1W', '1M']);
  });

  it('a new symbol is added only when non-empty and not already listed', () => {
    expect(addSymbol(['EURUSD'], '  ')).toEqual(['EURUSD']);
    expect(addSymbol(['EURUSD'], 'eurusd')).toEqual(['EURUSD']);
    expect(addSymbol(['EURUSD'], ' btcusd ')).toEqual(['EURUSD', 'BTCUSD']);
  });
});

describe('automated snapshot validation', () => {
  it('applies only when a template is chosen', () => {
    expect(snapshotError(null, null, [])).toBeNull();
  });
  it('needs a symbol, at least one timeframe and at most five', () => {
    expect(snapshotError('cfg', null, ['1h'])).toBe(
      'Symbol is required for automated snapshot when a configuration is selected.',
    );
    expect(snapshotError('cfg', 'EURUSD', [])).toBe(
      'At least one timeframe must be selected for automated snapshot.',
    );
    expect(snapshotError('cfg', 'EURUSD', ['1m', '3m', '5m', '15m', '30m', '1h'])).toBe(
      'No more than 5 timeframes can be selected for automated snapshot.',
    );
    expect(snapshotError('cfg', 'EURUSD', DEFAULT_SNAPSHOT_TIMEFRAMES)).toBeNull();
  });
});
