import { BrokerError, type Candle, type Quote, type Timeframe } from '../types';
import { call } from './ct-call';
import { entry } from './ct-symbols';
import { normSymbol, roundTo, type CtState } from './ct-state';
import { PRICE_SCALE, PT, TrendbarPeriod } from './protocol';
import { arr, normTrendbar } from './protocol-normalise';

/** Spot subscriptions shared per symbol, quotes and trendbar candles. */

const PERIOD: Record<Timeframe, number> = {
  M1: TrendbarPeriod.M1,
  M5: TrendbarPeriod.M5,
  M15: TrendbarPeriod.M15,
  M30: TrendbarPeriod.M30,
  H1: TrendbarPeriod.H1,
  H4: TrendbarPeriod.H4,
  D1: TrendbarPeriod.D1,
  W1: TrendbarPeriod.W1,
  MN1: TrendbarPeriod.MN1,
};

export async function subscribeSpots(st: CtState, symbolIds: number[]): Promise<void> {
  const ids = symbolIds.filter((id) => !st.spotIds.has(id));
  if (!ids.length) return;
  const spotIds = st.spotIds;
  for (const id of ids) spotIds.add(id);
  try {
    await call(
      st,
      PT.SUBSCRIBE_SPOTS_REQ,
      { symbolId: ids, subscribeToSpotTimestamp: true },
      PT.SUBSCRIBE_SPOTS_RES,
    );
  } catch (e) {
    for (const id of ids) spotIds.delete(id);
    throw e;
  }
}

export function subscribeQuotes(st: CtState, symbol: string, onQuote: (q: Quote) => void): () => void {
  const name = normSymbol(symbol);
  let subs = st.quoteSubs.get(name);
  const first = !subs;
  if (!subs) st.quoteSubs.set(name, (subs = new Set()));
  subs.add(onQuote);
  const known = st.symbolsByName.get(name);
  const last = known ? st.quotes.get(known.light.symbolId) : undefined;
  if (!first && last && last.bid && last.ask) queueMicrotask(() => onQuote(last));
  if (first) {
    // Not connected yet: connecting subscribes every watched symbol; connected: subscribe this one.
    void entry(st, symbol)
      .then(async (e) => {
        if (st.quoteSubs.get(name) === subs) await subscribeSpots(st, [e.light.symbolId]);
      })
      .catch((err) => st.opts.log?.warn({ err, symbol }, 'cTrader spot subscription failed'));
  }
  return () => {
    const current = st.quoteSubs.get(name);
    if (!current || current !== subs) return;
    current.delete(onQuote);
    if (current.size > 0) return;
    st.quoteSubs.delete(name);
    const e = st.symbolsByName.get(name);
    if (!e) return;
    st.quotes.delete(e.light.symbolId);
    if (st.conn?.isOpen && st.spotIds.delete(e.light.symbolId)) {
      call(st, PT.UNSUBSCRIBE_SPOTS_REQ, { symbolId: [e.light.symbolId] }, PT.UNSUBSCRIBE_SPOTS_RES).catch(
        () => undefined,
      );
    }
  };
}

export async function quote(st: CtState, symbol: string): Promise<Quote> {
  const e = await entry(st, symbol);
  const known = st.quotes.get(e.light.symbolId);
  if (known && known.bid && known.ask && st.quoteSubs.has(e.name)) return known;
  return new Promise<Quote>((resolve, reject) => {
    let unsubscribe: (() => void) | undefined = undefined;
    const timer = setTimeout(() => {
      unsubscribe?.();
      reject(new BrokerError(`cTrader: no price for ${e.name}`, 'unavailable'));
    }, st.opts.requestTimeoutMs ?? 15_000);
    unsubscribe = subscribeQuotes(st, symbol, (q) => {
      clearTimeout(timer);
      queueMicrotask(() => unsubscribe?.());
      resolve(q);
    });
  });
}

export async function candles(
  st: CtState,
  symbol: string,
  timeframe: Timeframe,
  fromMs: number,
  toMs: number,
): Promise<Candle[]> {
  const e = await entry(st, symbol);
  const digits = e.full?.digits ?? 5;
  const out = new Map<number, Candle>();
  let to = toMs;
  for (let page = 0; page < 50 && to >= fromMs; page++) {
    const res = await call(
      st,
      PT.GET_TRENDBARS_REQ,
      { fromTimestamp: fromMs, toTimestamp: to, period: PERIOD[timeframe], symbolId: e.light.symbolId },
      PT.GET_TRENDBARS_RES,
    );
    const bars = arr(res.trendbar).map(normTrendbar);
    let earliest = Infinity;
    for (const b of bars) {
      const low = b.low ?? 0;
      const time = (b.utcTimestampInMinutes ?? 0) * 60_000;
      earliest = Math.min(earliest, time);
      if (time < fromMs || time > toMs) continue;
      out.set(time, {
        time,
        low: roundTo(low / PRICE_SCALE, digits),
        open: roundTo((low + (b.deltaOpen ?? 0)) / PRICE_SCALE, digits),
        close: roundTo((low + (b.deltaClose ?? 0)) / PRICE_SCALE, digits),
        high: roundTo((low + (b.deltaHigh ?? 0)) / PRICE_SCALE, digits),
        volume: b.volume,
      });
    }
    if (res.hasMore !== true || !bars.length || !Number.isFinite(earliest)) break;
    to = earliest - 1;
  }
  return [...out.values()].sort((a, b) => a.time - b.time);
}
