import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cleanSymbol } from './symbols';

describe('cleanSymbol: the one symbol cleaning', () => {
  it.each([
    ['EURUSD', 'EURUSD'],
    [' eurusd ', 'EURUSD'],
    ['EURUSD.m', 'EURUSD'],
    ['EURUSD.pro', 'EURUSD'],
    ['EURUSD#', 'EURUSD'],
    ['EURUSD-ECN', 'EURUSD'],
    ['EURUSD_i', 'EURUSD'],
    ['EURUSD.m#', 'EURUSD'],
    ['US100.cash', 'US100'],
    ['XAUUSD+', 'XAUUSD'],
    // cTrader's names: the slash goes, as do spaces inside a name.
    ['EUR/USD', 'EURUSD'],
    ['usd/jpy', 'USDJPY'],
    ['EUR / USD', 'EURUSD'],
    ['US 500', 'US500'],
    ['EUR/USD.m', 'EURUSD'],
    // A pair written with a dot or dash between its currencies is one name, not a name and a suffix.
    ['BTC-USD', 'BTCUSD'],
    ['EUR.USD', 'EURUSD'],
    ['eur_usd', 'EURUSD'],
    ['XAU-USD.m', 'XAUUSD'],
    ['EUR.USD#', 'EURUSD'],
  ])('%s → %s', (raw, clean) => expect(cleanSymbol(raw)).toBe(clean));

  it('leaves a plain symbol as it is and never yields lower case or a separator', () => {
    fc.assert(fc.property(fc.stringMatching(/^[A-Z0-9]{1,12}$/), (plain) => cleanSymbol(plain) === plain));
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (raw) => {
        const clean = cleanSymbol(raw);
        expect(clean).toBe(clean.toUpperCase());
        expect(clean).not.toMatch(/[/\s]/);
      }),
    );
  });
});
