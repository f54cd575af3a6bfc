import { roundToDigits } from '@tradedesk/domain';
import type { SimSymbolSpec } from './market-types';

/**
 * Session profile: which weekly timetable (opening hours, activity by session, spread widening)
 * drives the symbol. `fx` majors, `fx_asia` for the yen and the antipodeans (livelier in Tokyo),
 * `metal` for gold, `index` for US index CFDs, `crypto` for 24/7 coins.
 */
export type SessionProfile = 'fx' | 'fx_asia' | 'metal' | 'index' | 'crypto';

/** A cross is the product of its legs' mid prices (each raised to +1 or -1). */
export interface CrossLeg {
  symbol: string;
  power: 1 | -1;
}

export interface SimSymbolDef extends SimSymbolSpec {
  /** Long-run anchor of the price (mid), around current-era levels. */
  anchor_price: number;
  profile: SessionProfile;
  /** Set for crosses whose price is derived from primary symbols, so that they agree with their legs. */
  legs?: CrossLeg[];
  /**
   * Exposure to the common US-dollar factor: +1 when USD is the base (USDJPY), -1 when it is the
   * quote (EURUSD, XAUUSD). It makes USD pairs move together as they do in reality.
   */
  usd_loading?: 1 | -1;
}

/** The hidden common dollar factor (log price around 0), shared by every USD pair. */
export const USD_FACTOR = {
  symbol: '$USD',
  anchor_price: 1,
  annual_vol: 0.05,
  profile: 'fx' as SessionProfile,
};

type Common = Pick<SimSymbolDef, 'volume_min' | 'volume_step' | 'volume_max'>;
const LOTS: Common = { volume_min: 0.01, volume_step: 0.01, volume_max: 100 };

/** USD 7 per round-turn lot on FX and metals, charged per side. */
const FX_COMMISSION = 3.5;

/**
 * Leverage caps per instrument class (README.md, Margin): FX is not capped below any usual account
 * leverage, so the account's own setting decides there; gold and indices 1:20, crypto 1:2 (the ESMA
 * retail caps for those classes, which is what a trader meets at most brokers).
 */
export const MAX_LEVERAGE = { fx: 500, metal: 20, index: 20, crypto: 2 } as const;

function fx(
  symbol: string,
  description: string,
  anchor: number,
  spreadPips: number,
  annualVol: number,
  profile: SessionProfile = 'fx',
  legs?: CrossLeg[],
): SimSymbolDef {
  const jpy = symbol.endsWith('JPY');
  const digits = jpy ? 3 : 5;
  const pip = jpy ? 0.01 : 0.0001;
  const def: SimSymbolDef = {
    symbol,
    description,
    digits,
    pip_size: pip,
    tick_size: jpy ? 0.001 : 0.00001,
    contract_size: 100_000,
    base_currency: symbol.slice(0, 3),
    quote_currency: symbol.slice(3, 6),
    ...LOTS,
    spread: roundToDigits(spreadPips * pip, digits),
    annual_vol: annualVol,
    calendar: 'fx',
    commission_per_lot: FX_COMMISSION,
    max_leverage: MAX_LEVERAGE.fx,
    anchor_price: anchor,
    profile,
  };
  if (legs) def.legs = legs;
  else if (def.base_currency === 'USD') def.usd_loading = 1;
  else if (def.quote_currency === 'USD') def.usd_loading = -1;
  return def;
}

/**
 * The catalogue. Conventions (see README.md):
 * - pip: 0.0001 on FX, 0.01 on JPY-quoted pairs, 0.1 on XAUUSD (10 cents), 1 point on indices and BTCUSD;
 * - tick (smallest price change) = 10^-digits;
 * - contract size: 100,000 units of base on FX, 100 oz on XAUUSD, 1 on indices and BTCUSD;
 * - spreads are raw (ECN-like) spreads in price units, widened by the session schedule;
 * - commission: USD 3.50 per lot per side on FX and gold, none on indices and crypto;
 * - leverage caps (MAX_LEVERAGE): FX 1:500, gold and indices 1:20, BTCUSD 1:2.
 * EURJPY and GBPJPY are crosses: their price is EURUSD x USDJPY and GBPUSD x USDJPY, and their
 * `annual_vol` is an approximate implied figure, given for information. USD pairs and gold share a
 * common dollar factor (USD_FACTOR); `annual_vol` is their total volatility, factor included.
 */
export const SIM_SYMBOLS: readonly SimSymbolDef[] = [
  fx('EURUSD', 'Euro vs US Dollar', 1.16, 0.2, 0.07),
  fx('GBPUSD', 'Great Britain Pound vs US Dollar', 1.32, 0.4, 0.08),
  fx('USDJPY', 'US Dollar vs Japanese Yen', 152.0, 0.3, 0.09, 'fx_asia'),
  fx('AUDUSD', 'Australian Dollar vs US Dollar', 0.655, 0.3, 0.1, 'fx_asia'),
  fx('USDCAD', 'US Dollar vs Canadian Dollar', 1.39, 0.5, 0.06),
  fx('USDCHF', 'US Dollar vs Swiss Franc', 0.8, 0.5, 0.075),
  fx('NZDUSD', 'New Zealand Dollar vs US Dollar', 0.575, 0.6, 0.105, 'fx_asia'),
  fx('EURJPY', 'Euro vs Japanese Yen', 1.16 * 152, 0.6, 0.09, 'fx_asia', [
    { symbol: 'EURUSD', power: 1 },
    { symbol: 'USDJPY', power: 1 },
  ]),
  fx('GBPJPY', 'Great Britain Pound vs Japanese Yen', 1.32 * 152, 1.2, 0.1, 'fx_asia', [
    { symbol: 'GBPUSD', power: 1 },
    { symbol: 'USDJPY', power: 1 },
  ]),
  {
    symbol: 'XAUUSD',
    description: 'Gold vs US Dollar',
    digits: 2,
    pip_size: 0.1,
    tick_size: 0.01,
    contract_size: 100,
    base_currency: 'XAU',
    quote_currency: 'USD',
    volume_min: 0.01,
    volume_step: 0.01,
    volume_max: 50,
    spread: 0.12,
    annual_vol: 0.16,
    calendar: 'fx',
    commission_per_lot: FX_COMMISSION,
    max_leverage: MAX_LEVERAGE.metal,
    anchor_price: 4000,
    profile: 'metal',
    usd_loading: -1,
  },
  index('US100', 'US Tech 100 Index', 25_000, 1.0, 0.22),
  index('US30', 'US Wall Street 30 Index', 46_000, 2.0, 0.16),
  {
    symbol: 'BTCUSD',
    description: 'Bitcoin vs US Dollar',
    digits: 2,
    pip_size: 1,
    tick_size: 0.01,
    contract_size: 1,
    base_currency: 'BTC',
    quote_currency: 'USD',
    volume_min: 0.01,
    volume_step: 0.01,
    volume_max: 20,
    spread: 15,
    annual_vol: 0.55,
    calendar: 'crypto',
    commission_per_lot: 0,
    max_leverage: MAX_LEVERAGE.crypto,
    anchor_price: 95_000,
    profile: 'crypto',
  },
];

function index(
  symbol: string,
  description: string,
  anchor: number,
  spread: number,
  annualVol: number,
): SimSymbolDef {
  return {
    symbol,
    description,
    digits: 2,
    pip_size: 1,
    tick_size: 0.01,
    contract_size: 1,
    base_currency: symbol,
    quote_currency: 'USD',
    volume_min: 0.1,
    volume_step: 0.1,
    volume_max: 500,
    spread,
    annual_vol: annualVol,
    calendar: 'index',
    commission_per_lot: 0,
    max_leverage: MAX_LEVERAGE.index,
    anchor_price: anchor,
    profile: 'index',
  };
}

/** The spec part (what the interface exposes), without the simulator's internals. */
export function toSpec(def: SimSymbolDef): SimSymbolSpec {
  const { anchor_price: _a, profile: _p, legs: _l, usd_loading: _u, ...spec } = def;
  void _a;
  void _p;
  void _l;
  void _u;
  return spec;
}

/** Currencies the simulator can convert between (fiat only; XAU, BTC and index names are not currencies). */
export const SIM_CURRENCIES: readonly string[] = ['USD', 'EUR', 'GBP', 'JPY', 'AUD', 'CAD', 'CHF', 'NZD'];

/**
 * `n` synthetic FX-like instruments SYN001, SYN002, ... quoted in USD (levels 0.5-2.0, volatility
 * 6-14 %), for load tests that need many symbols; only present when asked for.
 */
export function syntheticSymbols(n: number): SimSymbolDef[] {
  const out: SimSymbolDef[] = [];
  for (let i = 1; i <= n; i++) {
    const symbol = `SYN${String(i).padStart(3, '0')}`;
    const r = ((i * 2654435761) >>> 0) / 4294967296;
    const def = fx(symbol, `Synthetic instrument ${i}`, 0.5 + 1.5 * r, 0.3, 0.06 + 0.08 * ((r * 7) % 1));
    def.base_currency = symbol;
    def.quote_currency = 'USD';
    out.push(def);
  }
  return out;
}
