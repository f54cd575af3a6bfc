import { notEnoughMarginMessage, roundToDigits as roundTo } from '@tradedesk/domain';
import type { SimPositionsTable } from '../../db/schema';
import { BrokerError, type AccountInfo, type PriceOrDistance, type Quote, type Side } from '../types';
import type { SimSymbolSpec } from './market-types';
import { specOf, toAccount, type SimState } from './sim-state';

export function normaliseVolume(volume: number, s: SimSymbolSpec): number {
  if (!Number.isFinite(volume) || volume <= 0)
    throw new BrokerError('Volume must be a positive number.', 'rejected');
  const v = roundTo(Math.round(volume / s.volume_step) * s.volume_step, 8);
  if (v < s.volume_min - 1e-9 || v > s.volume_max + 1e-9) {
    throw new BrokerError(
      `Volume must be between ${s.volume_min} and ${s.volume_max} lots for ${s.symbol}.`,
      'rejected',
    );
  }
  return v;
}

/** P/L of `volume` lots from entry to exit, in the account currency at instant t. */
export function profitOf(
  st: SimState,
  s: SimSymbolSpec,
  side: Side,
  volume: number,
  entry: number,
  exit: number,
  t: number,
): number {
  const inQuote = (exit - entry) * (side === 'BUY' ? 1 : -1) * volume * s.contract_size;
  return toAccount(st, inQuote, s.quote_currency, t);
}

/**
 * Margin in the account currency: notional (in the quote currency) over the leverage that applies
 * to the symbol, the account's unless the broker caps the instrument lower (crypto, indices, gold).
 */
export const marginOf = (st: SimState, s: SimSymbolSpec, volume: number, price: number, t: number) =>
  toAccount(
    st,
    (volume * s.contract_size * price) / Math.min(st.account.leverage, s.max_leverage),
    s.quote_currency,
    t,
  );

/** Commission per side, as a negative amount in minor units of the account currency. */
export const commissionMinor = (st: SimState, s: SimSymbolSpec, volume: number, t: number) =>
  -st.toMinor(toAccount(st, s.commission_per_lot * volume, 'USD', t));

/** The price a position would close at now: buys close at the bid, sells at the ask. */
export const closePrice = (side: Side, q: Quote) => (side === 'BUY' ? q.bid : q.ask);

export function unrealised(st: SimState, p: SimPositionsTable, t: number): number {
  const s = specOf(st, p.symbol);
  const exit = closePrice(p.side, st.market.quoteAt(p.symbol, t));
  return profitOf(st, s, p.side, p.volume, p.entry_price, exit, t);
}

export function infoAt(st: SimState, t: number): AccountInfo {
  const { toMinor, fromMinor } = st;
  let floating = 0;
  let margin = 0;
  for (const p of st.positions.values()) {
    floating += unrealised(st, p, t);
    margin += marginOf(st, specOf(st, p.symbol), p.volume, p.entry_price, t);
  }
  const balance = fromMinor(st.balanceMinor);
  const equity = roundTo(balance + floating, 8);
  const marginRounded = fromMinor(toMinor(margin));
  return {
    balance,
    equity: fromMinor(toMinor(equity)),
    margin: marginRounded,
    free_margin: fromMinor(toMinor(equity - margin)),
    currency: st.ccy,
    leverage: st.account.leverage,
  };
}

/** A stop or target as a price: distances count from `from` (the fill, or the limit price). */
export function stopPrice(
  v: PriceOrDistance | undefined,
  which: 'sl' | 'tp',
  side: Side,
  from: number,
  digits: number,
): number | null {
  if (!v) return null;
  if ('price' in v) return roundTo(v.price, digits);
  const away = (which === 'sl') === (side === 'BUY') ? -1 : 1;
  return roundTo(from + away * v.distance, digits);
}

/** Stops must sit on the losing side (SL) and winning side (TP) of `ref`, or they would fire at once. */
export function checkStops(side: Side, ref: number, sl: number | null, tp: number | null): void {
  const below = (x: number) => x < ref;
  if (sl !== null && (sl <= 0 || (side === 'BUY' ? !below(sl) : below(sl) || sl === ref))) {
    throw new BrokerError(
      `Invalid stop loss ${sl}: a ${side === 'BUY' ? 'buy' : 'sell'} stop must be ${side === 'BUY' ? 'below' : 'above'} ${ref}.`,
      'rejected',
    );
  }
  if (tp !== null && (tp <= 0 || (side === 'BUY' ? below(tp) || tp === ref : !below(tp)))) {
    throw new BrokerError(
      `Invalid take profit ${tp}: a ${side === 'BUY' ? 'buy' : 'sell'} target must be ${side === 'BUY' ? 'above' : 'below'} ${ref}.`,
      'rejected',
    );
  }
}

export function requireMargin(
  st: SimState,
  s: SimSymbolSpec,
  volume: number,
  price: number,
  t: number,
): void {
  const needed = marginOf(st, s, volume, price, t) - st.fromMinor(commissionMinor(st, s, volume, t));
  const free = infoAt(st, t).free_margin;
  if (needed > free) throw new BrokerError(notEnoughMarginMessage(needed, free, st.ccy), 'rejected');
}

export function requireOpen(st: SimState, symbol: string, t: number): void {
  if (!st.market.isOpen(symbol, t)) throw new BrokerError(`The market for ${symbol} is closed.`, 'rejected');
}
