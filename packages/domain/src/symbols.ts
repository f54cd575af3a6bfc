/**
 * A broker symbol cleaned the way the spec asks: upper-cased, and a broker suffix removed
 * (`EURUSD.m`, `EURUSD.pro`, `EURUSD#`, `EURUSD-ECN`, `EURUSD_i` all become `EURUSD`), and the
 * separators some platforms write inside a name dropped (cTrader's `EUR/USD`, `US 500`, `BTC-USD`, `EUR.USD`).
 * The one cleaning the web (ATR requests), the server (symbol lookups, statement mapping) and the
 * cTrader adapter (its symbol names) share.
 */
export function cleanSymbol(raw: string): string {
  return (
    raw
      .trim()
      .toUpperCase()
      .replace(/[/\s]+/g, '')
      // A pair written with a separator (`BTC-USD`, `EUR.USD`) is one name, not a name and a suffix.
      .replace(/^([A-Z]{3})[._-]([A-Z]{3})(?=$|[._#+!-])/, '$1$2')
      .replace(/[#+!]+$/, '')
      .replace(/[._-][A-Z0-9]{1,8}$/, '')
      .replace(/[#+!]+$/, '')
  );
}
