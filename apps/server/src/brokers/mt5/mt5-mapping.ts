import { roundToDigits } from '@tradedesk/domain';
import {
  BrokerError,
  type AccountInfo,
  type Deal,
  type DealReason,
  type PendingOrder,
  type Position,
  type SymbolInfo,
} from '../types';
import type { BridgeErrorBody, WireAccount, WireDeal, WireOrder, WirePosition, WireSymbol } from './protocol';

/** The bridge's wire shapes as the shapes of the broker interface, and its errors as broker errors. */

export interface Mt5Credentials {
  account_number: string;
  password: string;
  server: string;
}

/** MT5 account as the bridge reports it, in our field names. */
export interface Mt5AccountInfo extends AccountInfo {
  login: number;
  server: string;
  name: string;
  company: string;
  margin_level: number | null;
  trade_mode: WireAccount['trade_mode'];
  margin_mode: WireAccount['margin_mode'];
}

/** Identifies orders placed by this app in the terminal (MqlTradeRequest.magic). */
export const TRADEDESK_MAGIC = 770_001;

export const iso = (ms: number) => new Date(ms).toISOString();
const sideOf = (t: string): 'BUY' | 'SELL' => (t.startsWith('BUY') ? 'BUY' : 'SELL');
/** Prices and volumes are rounded by the domain's one rounding (half away from zero). */
export const roundTo = roundToDigits;

export function toAccountInfo(a: WireAccount): Mt5AccountInfo {
  return {
    login: a.login,
    server: a.server,
    name: a.name,
    company: a.company,
    balance: a.balance,
    equity: a.equity,
    margin: a.margin,
    free_margin: a.margin_free,
    margin_level: a.margin_level,
    currency: a.currency,
    leverage: a.leverage,
    trade_mode: a.trade_mode,
    margin_mode: a.margin_mode,
  };
}

/** MT5 has no pip: on 3- and 5-digit quotes a pip is ten points, otherwise one point. */
export function toSymbolInfo(s: WireSymbol): SymbolInfo {
  return {
    symbol: s.name,
    description: s.description,
    digits: s.digits,
    pip_size: roundTo(s.digits % 2 === 1 ? s.point * 10 : s.point, s.digits),
    tick_size: s.trade_tick_size,
    contract_size: s.trade_contract_size,
    base_currency: s.currency_base,
    quote_currency: s.currency_profit,
    volume_min: s.volume_min,
    volume_step: s.volume_step,
    volume_max: s.volume_max,
  };
}

export function toPosition(p: WirePosition): Position {
  return {
    position_id: String(p.ticket),
    symbol: p.symbol,
    side: p.type,
    volume: p.volume,
    entry_price: p.price_open,
    stop_loss: p.sl,
    take_profit: p.tp,
    profit: p.profit,
    swap: p.swap,
    commission: p.commission,
    opened_at: iso(p.time_msc),
    ...(p.client_id ? { client_order_id: p.client_id } : {}),
  };
}

export function toOrder(o: WireOrder): PendingOrder {
  return {
    order_id: String(o.ticket),
    symbol: o.symbol,
    side: sideOf(o.type),
    kind: 'LIMIT',
    volume: o.volume_current,
    limit_price: o.price_open,
    stop_loss: o.sl,
    take_profit: o.tp,
    created_at: iso(o.time_setup_msc),
    ...(o.client_id ? { client_order_id: o.client_id } : {}),
  };
}

export function toDeal(d: WireDeal, partial: boolean): Deal {
  const entry = d.entry === 'IN' || d.entry === 'INOUT' ? 'IN' : 'OUT';
  let reason: DealReason;
  if (d.reason === 'SL') reason = 'STOP_LOSS';
  else if (d.reason === 'TP') reason = 'TAKE_PROFIT';
  else if (d.reason === 'SO') reason = 'STOP_OUT';
  else if (entry === 'IN')
    reason = d.order_type?.endsWith('_LIMIT') ? 'LIMIT' : d.magic === TRADEDESK_MAGIC ? 'MARKET' : 'EXTERNAL';
  else if (d.magic !== TRADEDESK_MAGIC && d.reason !== 'EXPERT') reason = 'EXTERNAL';
  else reason = partial ? 'PARTIAL_CLOSE' : 'CLOSE';
  return {
    deal_id: String(d.ticket),
    order_id: String(d.order),
    position_id: String(d.position_id),
    symbol: d.symbol,
    side: d.type,
    entry,
    volume: d.volume,
    price: d.price,
    profit: d.profit,
    commission: d.commission,
    swap: d.swap,
    reason,
    time: iso(d.time_msc),
  };
}

export function ticketOf(id: string, what: string): string {
  if (!/^\d{1,20}$/.test(id)) throw new BrokerError(`MT5 ${what} ${id} was not found.`, 'not_found');
  return id;
}

/** Maps a bridge error body (docs/mt5-bridge.md, "Errors") to the broker error our routes understand. */
export function toBrokerError(status: number, body: BridgeErrorBody | null): BrokerError {
  const err = body?.error;
  const message = err?.message?.trim() || `HTTP ${status}`;
  switch (err?.code) {
    case 'INVALID_ACCOUNT':
      return new BrokerError(`MT5 login failed: ${message}`, 'auth');
    case 'UNAUTHORIZED':
      return new BrokerError(
        'The MT5 bridge refused our bridge token (check MT5_BRIDGE_TOKEN).',
        'unavailable',
      );
    case 'NOT_FOUND':
      return new BrokerError(message, 'not_found');
    case 'TRADE_REJECTED':
      return new BrokerError(`MT5 rejected the request: ${message}`, 'rejected');
    case 'BAD_REQUEST':
      return new BrokerError(`MT5 bridge refused the request: ${message}`, 'rejected');
    case 'TERMINAL_DISCONNECTED':
      return new BrokerError(
        `The MT5 terminal is not connected to the trade server: ${message}`,
        'unavailable',
      );
    default:
      return new BrokerError(`The MT5 bridge failed: ${message}`, 'unavailable');
  }
}

export function asBrokerError(e: unknown): BrokerError {
  return e instanceof BrokerError
    ? e
    : new BrokerError(`The MT5 bridge failed: ${String((e as Error)?.message ?? e)}`, 'unavailable');
}
