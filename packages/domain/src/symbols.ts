/**
 * A broker symbol cleaned the way the spec asks: upper-cased, and a broker suffix removed
 * (`EURUSD.m`, `EURUSD.pro`, `EURUSD#`, `EURUSD-ECN`, `EURUSD_i` all become `EURUSD`).
 * The one cleaning the web (ATR requests) and the server (symbol lookups) share.
 */
export function cleanSymbol(raw: string): string {
  return raw
    .trim()
    .toUpperCase()
    .replace(/[#+!]+$/, '')
    .replace(/[._-][A-Z0-9]{1,8}$/, '')
    .replace(/[#+!]+$/, '');
}
