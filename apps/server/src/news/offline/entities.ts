/**
 * The instrument table of the offline analyser: what a news text can name (currencies, central banks,
 * countries, indices, commodities and their tickers) and the instruments each one concerns.
 *
 * An entity moves one asset (`asset`): a central bank or a country moves its currency, a commodity its
 * price, an index itself. Rules in `cues.ts` push assets up or down; `impact.ts` turns asset moves into
 * instrument directions through each instrument's exposures (EURUSD is long EUR and short USD).
 * Keep the table in step with docs/news.md when adding rows.
 */

export type EntityKind = 'currency' | 'central_bank' | 'country' | 'index' | 'commodity' | 'crypto';

export interface Entity {
  /** Name shown in the rationale. */
  label: string;
  kind: EntityKind;
  /** Matched against the text; case-insensitive unless the pattern says otherwise. */
  pattern: RegExp;
  /** The asset the entity's news moves. */
  asset: string;
  /** Instruments a text naming the entity concerns, most traded first. */
  symbols: readonly string[];
  /** The economy's main equity index: rate decisions and data move it too. */
  index?: string;
}

interface Economy {
  currency: string;
  names: { currency: RegExp; bank: RegExp; country: RegExp };
  bankLabel: string;
  countryLabel: string;
  symbols: readonly string[];
  index?: string;
}

const ECONOMIES: readonly Economy[] = [
  {
    currency: 'USD',
    bankLabel: 'Federal Reserve',
    countryLabel: 'United States',
    names: {
      currency:
        /(?<!(?:canadian|australian|new zealand|hong kong|singapore|taiwan) )\b(?:dollar|greenback|usd)\b/i,
      bank: /\b(?:federal reserve|the fed|fed(?:'s)?|fomc|powell)\b/i,
      country:
        /\b(?:U\.S\.|US|USA|United States|America|American|Treasur(?:y|ies)|Washington|non-?farm payrolls?)\b/,
    },
    symbols: ['EURUSD', 'USDJPY', 'GBPUSD', 'XAUUSD', 'US500'],
    index: 'US500',
  },
  {
    currency: 'EUR',
    bankLabel: 'ECB',
    countryLabel: 'Euro area',
    names: {
      currency: /\b(?:euro|eur)\b/i,
      bank: /\b(?:ecb|european central bank|lagarde|bundesbank)\b/i,
      country: /\b(?:euro ?zone|euro area|germany|german|france|french|italy|italian|spain|spanish)\b/i,
    },
    symbols: ['EURUSD', 'EURJPY', 'GER40'],
    index: 'GER40',
  },
  {
    currency: 'GBP',
    bankLabel: 'Bank of England',
    countryLabel: 'United Kingdom',
    names: {
      currency: /\b(?:pound|sterling|gbp|cable)\b/i,
      bank: /\b(?:bank of england|boe|bailey)\b/i,
      country: /\b(?:UK|U\.K\.|United Kingdom|Britain|British|England)\b/,
    },
    symbols: ['GBPUSD', 'EURGBP', 'UK100'],
    index: 'UK100',
  },
  {
    currency: 'JPY',
    bankLabel: 'Bank of Japan',
    countryLabel: 'Japan',
    names: {
      currency: /\b(?:yen|jpy)\b/i,
      bank: /\b(?:bank of japan|boj|ueda)\b/i,
      country: /\b(?:japan|japanese|tokyo)\b/i,
    },
    symbols: ['USDJPY', 'EURJPY', 'JP225'],
    index: 'JP225',
  },
  {
    currency: 'CHF',
    bankLabel: 'Swiss National Bank',
    countryLabel: 'Switzerland',
    names: {
      currency: /\b(?:swiss franc|franc|chf|swissie)\b/i,
      bank: /\b(?:swiss national bank|snb)\b/i,
      country: /\b(?:switzerland|swiss)\b/i,
    },
    symbols: ['USDCHF', 'EURCHF'],
  },
  {
    currency: 'CAD',
    bankLabel: 'Bank of Canada',
    countryLabel: 'Canada',
    names: {
      currency: /\b(?:canadian dollar|loonie|cad)\b/i,
      bank: /\b(?:bank of canada|boc|macklem)\b/i,
      country: /\b(?:canada|canadian|ottawa)\b/i,
    },
    symbols: ['USDCAD', 'CADJPY'],
  },
  {
    currency: 'AUD',
    bankLabel: 'Reserve Bank of Australia',
    countryLabel: 'Australia',
    names: {
      currency: /\b(?:australian dollar|aussie|aud)\b/i,
      bank: /\b(?:reserve bank of australia|rba|bullock)\b/i,
      country: /\b(?:australia|australian)\b/i,
    },
    symbols: ['AUDUSD', 'AUDJPY'],
  },
  {
    currency: 'NZD',
    bankLabel: 'Reserve Bank of New Zealand',
    countryLabel: 'New Zealand',
    names: {
      currency: /\b(?:new zealand dollar|kiwi|nzd)\b/i,
      bank: /\b(?:reserve bank of new zealand|rbnz)\b/i,
      country: /\b(?:new zealand)\b/i,
    },
    symbols: ['NZDUSD'],
  },
  {
    currency: 'CNH',
    bankLabel: "People's Bank of China",
    countryLabel: 'China',
    names: {
      currency: /\b(?:yuan|renminbi|cnh|cny)\b/i,
      bank: /\b(?:people's bank of china|pboc)\b/i,
      country: /\b(?:china|chinese|beijing)\b/i,
    },
    symbols: ['USDCNH', 'AUDUSD', 'HK50'],
    index: 'HK50',
  },
];

/** Economies expand into three entities each: the currency, the central bank and the country. */
function economyEntities(e: Economy): Entity[] {
  const common = { asset: e.currency, symbols: e.symbols, ...(e.index ? { index: e.index } : {}) };
  return [
    { label: e.bankLabel, kind: 'central_bank', pattern: e.names.bank, ...common },
    { label: e.countryLabel, kind: 'country', pattern: e.names.country, ...common },
    { label: e.currency, kind: 'currency', pattern: e.names.currency, ...common },
  ];
}

const MARKETS: readonly Entity[] = [
  {
    label: 'Crude oil',
    kind: 'commodity',
    pattern: /\b(?:crude|oil|wti|brent|opec\+?|barrels?)\b/i,
    asset: 'OIL',
    symbols: ['WTI', 'BRENT', 'USDCAD'],
  },
  {
    label: 'Natural gas',
    kind: 'commodity',
    pattern: /\b(?:natural gas|lng|gas prices?)\b/i,
    asset: 'NATGAS',
    symbols: ['NATGAS'],
  },
  {
    label: 'Gold',
    kind: 'commodity',
    pattern: /\b(?:gold|bullion|xau)\b/i,
    asset: 'XAU',
    symbols: ['XAUUSD'],
  },
  { label: 'Silver', kind: 'commodity', pattern: /\b(?:silver|xag)\b/i, asset: 'XAG', symbols: ['XAGUSD'] },
  {
    label: 'Copper',
    kind: 'commodity',
    pattern: /\bcopper\b/i,
    asset: 'COPPER',
    symbols: ['COPPER', 'AUDUSD'],
  },
  {
    label: 'S&P 500',
    kind: 'index',
    pattern: /(?:\bS&P(?: 500)?|\bwall street\b|\bus stocks\b|\bus equities\b)/i,
    asset: 'US500',
    symbols: ['US500'],
  },
  { label: 'Nasdaq 100', kind: 'index', pattern: /\bnasdaq\b/i, asset: 'US100', symbols: ['US100'] },
  {
    label: 'Dow Jones',
    kind: 'index',
    pattern: /\b(?:dow jones|the dow)\b/i,
    asset: 'US30',
    symbols: ['US30'],
  },
  { label: 'DAX', kind: 'index', pattern: /\bdax\b/i, asset: 'GER40', symbols: ['GER40'] },
  { label: 'FTSE 100', kind: 'index', pattern: /\bftse\b/i, asset: 'UK100', symbols: ['UK100'] },
  { label: 'Nikkei 225', kind: 'index', pattern: /\bnikkei\b/i, asset: 'JP225', symbols: ['JP225'] },
  { label: 'Hang Seng', kind: 'index', pattern: /\bhang seng\b/i, asset: 'HK50', symbols: ['HK50'] },
  { label: 'Bitcoin', kind: 'crypto', pattern: /\b(?:bitcoin|btc)\b/i, asset: 'BTC', symbols: ['BTCUSD'] },
];

export const ENTITIES: readonly Entity[] = [...ECONOMIES.flatMap(economyEntities), ...MARKETS];

/** Currencies whose value follows a commodity: oil exporters' currencies rise with oil. */
export const COMMODITY_CURRENCIES: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  OIL: { CAD: 0.5 },
  COPPER: { AUD: 0.3 },
};

/** Equity indices every risk cue moves; used also as the instruments of a text that names none. */
export const EQUITY_INDICES = ['US500', 'US100', 'US30', 'GER40', 'UK100', 'JP225', 'HK50'] as const;

/** What a text that only speaks of global risk concerns. */
export const RISK_SYMBOLS = ['US500', 'USDJPY', 'XAUUSD'] as const;

const SINGLE_ASSET: Readonly<Record<string, string>> = {
  WTI: 'OIL',
  BRENT: 'OIL',
  NATGAS: 'NATGAS',
  COPPER: 'COPPER',
  ...Object.fromEntries(EQUITY_INDICES.map((i) => [i, i])),
};

/**
 * How much of each asset an instrument holds: a six-letter pair is long its base and short its quote
 * (XAUUSD is long gold, short the dollar); indices and commodities hold themselves.
 */
export function exposures(symbol: string): Record<string, number> {
  const single = SINGLE_ASSET[symbol];
  if (single) return { [single]: 1 };
  if (/^[A-Z]{6}$/.test(symbol)) return { [symbol.slice(0, 3)]: 1, [symbol.slice(3)]: -1 };
  return { [symbol]: 1 };
}
