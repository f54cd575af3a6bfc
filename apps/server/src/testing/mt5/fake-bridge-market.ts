/**
 * The fake bridge's market and money: quotes from the symbols' state, conversion to the account
 * currency (USD) through its own quotes, floating profit, margin, the account figures, and
 * deterministic candles.
 */
import {
  timeframeMs,
  type Mt5Timeframe,
  type WireAccount,
  type WireCandle,
  type WirePosition,
  type WireTick,
} from '../../brokers/mt5/protocol';
import {
  money,
  mustSymbol,
  prng,
  round,
  type AccountState,
  type BridgeState,
  type SymbolState,
} from './fake-bridge-state';

export function tickOf(s: SymbolState): WireTick {
  return { symbol: s.spec.name, bid: s.bid, ask: round(s.bid + s.spread, s.spec.digits), time_msc: s.time };
}

/** Converts an amount in `currency` into the account currency (USD) through the fake's own quotes. */
export function toUsd(st: BridgeState, amount: number, currency: string): number {
  if (currency === 'USD') return amount;
  const direct = st.symbols.get(`${currency}USD`);
  if (direct) return amount * direct.bid;
  const inverse = st.symbols.get(`USD${currency}`);
  if (inverse) return amount / inverse.bid;
  return amount;
}

export function withProfit(st: BridgeState, p: WirePosition): WirePosition {
  const s = mustSymbol(st, p.symbol);
  const t = tickOf(s);
  const current = p.type === 'BUY' ? t.bid : t.ask;
  const dir = p.type === 'BUY' ? 1 : -1;
  const profit = money(
    toUsd(st, dir * (current - p.price_open) * p.volume * s.spec.trade_contract_size, s.spec.currency_profit),
  );
  return { ...p, price_current: current, profit };
}

export function marginOf(
  st: BridgeState,
  symbol: string,
  volume: number,
  price: number,
  leverage: number,
): number {
  const s = mustSymbol(st, symbol);
  return toUsd(st, (volume * s.spec.trade_contract_size * price) / leverage, s.spec.currency_profit);
}

export function accountOf(st: BridgeState, acc: AccountState): WireAccount {
  let floating = 0;
  let margin = 0;
  for (const p of acc.positions.values()) {
    floating += withProfit(st, p).profit;
    margin += marginOf(st, p.symbol, p.volume, p.price_open, acc.spec.leverage);
  }
  const equity = money(acc.balance + floating);
  margin = money(margin);
  return {
    login: acc.spec.login,
    server: acc.spec.server,
    name: acc.spec.name,
    company: 'Fake Broker Ltd',
    currency: 'USD',
    leverage: acc.spec.leverage,
    balance: money(acc.balance),
    equity,
    margin,
    margin_free: money(equity - margin),
    margin_level: margin > 0 ? money((equity / margin) * 100) : null,
    trade_mode: 'demo',
    margin_mode: acc.spec.margin_mode,
  };
}

/** Deterministic bars: a slow wave plus per-bar noise; the bar holding "now" closes at the live bid. */
export function candles(s: SymbolState, tf: Mt5Timeframe, from: number, to: number): WireCandle[] {
  const len = timeframeMs(tf);
  const out: WireCandle[] = [];
  const starts: number[] = [];
  if (len === null) {
    const d = new Date(from);
    let t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    while (t <= to && starts.length < 5000) {
      starts.push(t);
      const n = new Date(t);
      t = Date.UTC(n.getUTCFullYear(), n.getUTCMonth() + 1, 1);
    }
  } else {
    // Weekly bars open on Sunday 00:00 UTC as in MT5; the epoch was a Thursday.
    const offset = tf === 'W1' ? 3 * 86_400_000 : 0;
    for (let t = Math.floor((from + offset) / len) * len - offset; t <= to && starts.length < 5000; t += len)
      starts.push(t);
  }
  const now = Date.now();
  const unit = s.step * 20;
  const level = (t: number) =>
    s.bid + unit * 10 * Math.sin(t / 86_400_000) - unit * 10 * Math.sin(now / 86_400_000);
  for (const t of starts) {
    if (t > now) break;
    const noise = prng(Math.floor(t / 1000) ^ s.spec.name.length);
    const open = level(t) + (noise() - 0.5) * unit;
    const isLive = len === null ? t + 31 * 86_400_000 > now : t + len > now;
    const close = isLive ? s.bid : level(t) + (noise() - 0.5) * unit;
    const high = Math.max(open, close) + noise() * unit;
    const low = Math.min(open, close) - noise() * unit;
    const d = s.spec.digits;
    out.push({
      time: t,
      open: round(open, d),
      high: round(high, d),
      low: round(low, d),
      close: round(close, d),
      tick_volume: 10 + Math.floor(noise() * 500),
    });
  }
  return out;
}
