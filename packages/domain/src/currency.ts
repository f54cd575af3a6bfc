/**
 * Currency conversion for P/L and risk: how much a price move is worth in the account currency.
 *
 * Rates come from the caller through a lookup `(from, to) => rate | undefined`, where `rate` is the
 * price of one `from` in `to` (EURUSD 1.08 means lookup('EUR', 'USD') = 1.08). The lookup may know a
 * pair in one direction only; this module tries the direct rate, the inverse, and a cross through USD.
 */

export type RateLookup = (from: string, to: string) => number | undefined;

/** The pivot currency for crosses: every FX and CFD feed quotes its currencies against USD. */
export const CROSS_CURRENCY = 'USD';

export class ConversionError extends Error {
  readonly from: string;
  readonly to: string;
  constructor(from: string, to: string) {
    super(
      `No exchange rate available to convert ${from} into ${to} (tried ${from}${to}, ${to}${from} and a cross through ${CROSS_CURRENCY}).`,
    );
    this.name = 'ConversionError';
    this.from = from;
    this.to = to;
  }
}

function usable(rate: number | undefined): rate is number {
  return rate !== undefined && Number.isFinite(rate) && rate > 0;
}

/** Direct or inverse rate of one leg, without crossing. */
function leg(from: string, to: string, lookup: RateLookup): number | undefined {
  if (from === to) return 1;
  const direct = lookup(from, to);
  if (usable(direct)) return direct;
  const inverse = lookup(to, from);
  if (usable(inverse)) return 1 / inverse;
  return undefined;
}

/**
 * Price of one unit of `from` in `to`: 1 when equal, else direct, inverse, or through USD.
 * Returns undefined when no route exists; see `conversionRate` for the throwing form.
 */
export function findConversionRate(from: string, to: string, lookup: RateLookup): number | undefined {
  const f = from.trim().toUpperCase();
  const t = to.trim().toUpperCase();
  const direct = leg(f, t, lookup);
  if (direct !== undefined) return direct;
  if (f === CROSS_CURRENCY || t === CROSS_CURRENCY) return undefined;
  const toUsd = leg(f, CROSS_CURRENCY, lookup);
  const fromUsd = leg(CROSS_CURRENCY, t, lookup);
  if (toUsd === undefined || fromUsd === undefined) return undefined;
  return toUsd * fromUsd;
}

/** Like `findConversionRate`, but throws a `ConversionError` naming both currencies when there is no route. */
export function conversionRate(from: string, to: string, lookup: RateLookup): number {
  const rate = findConversionRate(from, to, lookup);
  if (rate === undefined) throw new ConversionError(from.trim().toUpperCase(), to.trim().toUpperCase());
  return rate;
}

export interface SymbolCurrencies {
  base_currency: string;
  quote_currency: string;
}

/**
 * A lookup that also knows the symbol's own price (base in quote), so that USDJPY on a USD account
 * converts JPY → USD with its own quote even when the caller's table has no separate USDJPY entry.
 */
export function withSymbolPrice(
  lookup: RateLookup,
  symbol: SymbolCurrencies,
  price: number | undefined,
): RateLookup {
  if (!usable(price)) return lookup;
  const base = symbol.base_currency.trim().toUpperCase();
  const quote = symbol.quote_currency.trim().toUpperCase();
  return (from, to) => {
    const known = lookup(from, to);
    if (usable(known)) return known;
    if (from === base && to === quote) return price;
    return undefined;
  };
}

/**
 * Value, in the account currency, of a 1.0 price move on ONE unit of the symbol
 * (multiply by contract size × lots for a position). A 1.0 move on one unit is one unit of the quote
 * currency, so this is the quote → account rate: 1 for EURUSD on USD, 1/USDJPY for USDJPY on USD,
 * 1/EURUSD for XAUUSD on a EUR account.
 *
 * @param symbolPrice the symbol's current price (optional), used when the lookup lacks the symbol itself.
 * @throws ConversionError when no rate is available.
 */
export function priceMoveValue(
  symbol: SymbolCurrencies,
  accountCurrency: string,
  lookup: RateLookup,
  symbolPrice?: number,
): number {
  return conversionRate(symbol.quote_currency, accountCurrency, withSymbolPrice(lookup, symbol, symbolPrice));
}

/** A lookup over a table of pair quotes, e.g. { EURUSD: 1.08, USDJPY: 150 } (six-letter currency pairs). */
export function rateTable(quotes: Readonly<Record<string, number>>): RateLookup {
  const table = new Map<string, number>();
  for (const [pair, rate] of Object.entries(quotes)) table.set(pair.toUpperCase(), rate);
  return (from, to) => table.get(`${from.toUpperCase()}${to.toUpperCase()}`);
}

/**
 * Every pair whose price may convert the symbol's quote currency into the account currency, in the
 * order `findConversionRate` prefers them: the direct pair either way round, then the legs of the
 * cross through USD. The symbol itself is left out (its own price is passed separately).
 */
export function conversionPairs(symbol: SymbolCurrencies, accountCurrency: string): string[] {
  const q = symbol.quote_currency.trim().toUpperCase();
  const a = accountCurrency.trim().toUpperCase();
  const own = `${symbol.base_currency}${symbol.quote_currency}`.toUpperCase();
  if (q === a) return [];
  const pairs = [`${q}${a}`, `${a}${q}`, `${q}${CROSS_CURRENCY}`, `${CROSS_CURRENCY}${q}`];
  pairs.push(`${a}${CROSS_CURRENCY}`, `${CROSS_CURRENCY}${a}`);
  return [...new Set(pairs)].filter((p) => p !== own && p.slice(0, 3) !== p.slice(3));
}

/**
 * The pairs a client must watch to convert the symbol's quote currency, among the symbols the
 * account trades: the direct pair when there is one, else what the cross through USD needs.
 * Empty when the symbol's own price is enough.
 */
export function conversionPairsToWatch(
  symbol: SymbolCurrencies,
  accountCurrency: string,
  tradable: readonly string[],
): string[] {
  const q = symbol.quote_currency.trim().toUpperCase();
  const a = accountCurrency.trim().toUpperCase();
  if (q === a || symbol.base_currency.trim().toUpperCase() === a) return [];
  const known = new Set(tradable.map((s) => s.toUpperCase()));
  const candidates = conversionPairs(symbol, accountCurrency).filter((p) => known.has(p));
  const direct = candidates.find((p) => p === `${q}${a}` || p === `${a}${q}`);
  if (direct) return [direct];
  // The symbol's own price may be a leg itself (USDCAD is CAD's leg to USD): it is not in the list.
  const legFor = (c: string) =>
    c === CROSS_CURRENCY
      ? null
      : (candidates.find((p) => p === `${c}${CROSS_CURRENCY}` || p === `${CROSS_CURRENCY}${c}`) ?? null);
  return [legFor(q), legFor(a)].filter((p): p is string => p !== null);
}

/**
 * Value in the account currency of one unit of the symbol's quote currency, from mid prices of pairs
 * (`conversionPairs`) and the symbol's own mid: the one conversion the modal and the server share.
 * @throws ConversionError when the prices given offer no route.
 */
export function quoteToAccountRate(
  symbol: SymbolCurrencies,
  accountCurrency: string,
  mids: Readonly<Record<string, number>>,
  symbolMid?: number,
): number {
  return priceMoveValue(symbol, accountCurrency, rateTable(mids), symbolMid);
}
