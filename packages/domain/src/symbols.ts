/**
 * A broker symbol cleaned the way the spec asks: upper-cased, and a broker suffix removed
 * (`EURUSD.m`, `EURUSD.pro`, `EURUSD#`, `EURUSD-ECN`, `EURUSD_i` all become `EURUSD`), and the
 * separators some platforms write inside a name dropped (cTrader's `EUR/USD`, `US 500`).
 * The one cleaning the web (ATR requests), the server (symbol lookups, statement mapping) and the
 * cTrader adapter (its symbol names) share.
 */
export function cleanSymbol(raw: string): string {
  return raw
    .trim()
    .toUpperCase()
    .replace(/[/\s]+/g, '')
    .replace(/[#+!]+$/, '')
    .replace(/[._-][A-Z0-9]{1,8}$/, '')
    .replace(/[#+!]+$/, '');
}
