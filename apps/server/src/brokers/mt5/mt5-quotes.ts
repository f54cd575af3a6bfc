import type { AccountInfo, Candle, Quote, SymbolInfo, Timeframe } from '../types';
import { http } from './mt5-http';
import { toAccountInfo, toSymbolInfo, type Mt5AccountInfo } from './mt5-mapping';
import type { Mt5State } from './mt5-state';
import { send } from './mt5-stream';
import type { WireAccount, WireCandle, WireSymbol, WireTick } from './protocol';

/** The account, symbols, quotes and candles as the bridge reports them. */

export async function account(st: Mt5State): Promise<Mt5AccountInfo> {
  return toAccountInfo(await http<WireAccount>(st, 'GET', '/account'));
}

export async function accountInfo(st: Mt5State): Promise<AccountInfo> {
  const a = await account(st);
  return {
    balance: a.balance,
    equity: a.equity,
    margin: a.margin,
    free_margin: a.free_margin,
    currency: a.currency,
    leverage: a.leverage,
  };
}

export async function symbols(st: Mt5State): Promise<SymbolInfo[]> {
  const res = await http<{ symbols: WireSymbol[] }>(st, 'GET', '/symbols');
  const list = res.symbols.map(toSymbolInfo);
  for (const s of list) st.symbolCache.set(s.symbol, s);
  return list;
}

export async function symbolInfo(st: Mt5State, symbol: string): Promise<SymbolInfo> {
  const cached = st.symbolCache.get(symbol);
  if (cached) return cached;
  const info = toSymbolInfo(await http<WireSymbol>(st, 'GET', `/symbols/${encodeURIComponent(symbol)}`));
  st.symbolCache.set(symbol, info);
  return info;
}

export async function quote(st: Mt5State, symbol: string): Promise<Quote> {
  const live = st.lastQuotes.get(symbol);
  if (live && st.quoteListeners.has(symbol) && st.state === 'connected') return live;
  const t = await http<WireTick>(st, 'GET', `/quotes/${encodeURIComponent(symbol)}`);
  return { symbol: t.symbol, bid: t.bid, ask: t.ask, time: t.time_msc };
}

export function subscribeQuotes(st: Mt5State, symbol: string, onQuote: (q: Quote) => void): () => void {
  let set = st.quoteListeners.get(symbol);
  if (!set) {
    set = new Set();
    st.quoteListeners.set(symbol, set);
    send(st, { op: 'subscribe', symbols: [symbol] });
  }
  set.add(onQuote);
  return () => {
    const s = st.quoteListeners.get(symbol);
    if (!s?.delete(onQuote) || s.size > 0) return;
    st.quoteListeners.delete(symbol);
    st.lastQuotes.delete(symbol);
    send(st, { op: 'unsubscribe', symbols: [symbol] });
  };
}

export async function candles(
  st: Mt5State,
  symbol: string,
  timeframe: Timeframe,
  fromMs: number,
  toMs: number,
): Promise<Candle[]> {
  const q = new URLSearchParams({ symbol, timeframe, from: String(fromMs), to: String(toMs) });
  const res = await http<{ candles: WireCandle[] }>(st, 'GET', `/candles?${q}`);
  return res.candles.map((c) => ({
    time: c.time,
    open: c.open,
    high: c.high,
    low: c.low,
    close: c.close,
    volume: c.tick_volume,
  }));
}
