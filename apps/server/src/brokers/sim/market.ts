import type { Candle, Quote, Timeframe } from '../types';
import { BrokerError } from '../types';
import { buildCandles, CandleCache } from './candles';
import { CrossRates } from './cross-rates';
import type { SimMarket, SimSymbolSpec } from './market-types';
import { CrossPath, PrimaryPath, type LogPricePath } from './price-path';
import { SymbolPricer } from './quotes';
import { sessionTable } from './sessions';
import { SIM_SYMBOLS, syntheticSymbols, toSpec, USD_FACTOR } from './symbols';

const TIMEFRAMES = new Set<Timeframe>(['M1', 'M5', 'M15', 'M30', 'H1', 'H4', 'D1', 'W1', 'MN1']);

export interface SimMarketOptions {
  /** Every price is a pure function of (seed, symbol, instant). */
  seed: number;
  /** Clock for live ticks (epoch ms); defaults to Date.now. */
  now?: () => number;
  /** Interval between live ticks per subscribed symbol; 250 ms by default. */
  tickIntervalMs?: number;
  /** Adds this many synthetic instruments SYN001.. (for load tests that need many symbols). */
  extraSymbols?: number;
  /** Called when a subscriber's callback throws (the other subscribers still get their ticks). */
  onListenerError?: (err: unknown, symbol: string) => void;
}

/** The simulator, with a few extras beyond the SimMarket contract. */
export interface SimMarketExt extends SimMarket {
  /** Currencies `convert` accepts. */
  currencies(): string[];
  /** Number of live tick timers running (one per subscribed symbol), for leak checks. */
  activeTimers(): number;
}

export function createSimMarket(opts: SimMarketOptions): SimMarketExt {
  const seed = opts.seed | 0;
  const now = opts.now ?? Date.now;
  const tickIntervalMs = opts.tickIntervalMs ?? 250;
  const catalogue = [...SIM_SYMBOLS, ...syntheticSymbols(opts.extraSymbols ?? 0)];
  const specs = new Map<string, SimSymbolSpec>(catalogue.map((d) => [d.symbol, toSpec(d)]));

  const paths = new Map<string, LogPricePath>();
  const usd = new PrimaryPath(seed, USD_FACTOR);
  for (const d of catalogue) {
    if (d.legs) continue;
    if (!d.usd_loading) {
      paths.set(d.symbol, new PrimaryPath(seed, d));
      continue;
    }
    // Own volatility such that own + dollar factor has the symbol's total annual_vol.
    const ownVol = Math.sqrt(
      Math.max(d.annual_vol ** 2 - USD_FACTOR.annual_vol ** 2, (0.3 * d.annual_vol) ** 2),
    );
    const own = new PrimaryPath(seed, { ...d, annual_vol: ownVol });
    paths.set(
      d.symbol,
      new CrossPath([
        { path: own, power: 1 },
        { path: usd, power: d.usd_loading },
      ]),
    );
  }
  for (const d of catalogue) {
    if (!d.legs) continue;
    paths.set(d.symbol, new CrossPath(d.legs.map((l) => ({ path: paths.get(l.symbol)!, power: l.power }))));
  }
  const pricers = new Map<string, SymbolPricer>();
  for (const d of catalogue) {
    pricers.set(d.symbol, new SymbolPricer(d, paths.get(d.symbol)!, sessionTable(d.profile), seed));
  }
  const rates = new CrossRates(pricers);
  const candleCache = new CandleCache();

  const instant = (t: number): number => {
    if (!Number.isFinite(t)) throw new BrokerError(`Invalid time ${t}`, 'rejected');
    return t;
  };
  const pricer = (symbol: string): SymbolPricer => {
    const p = pricers.get(symbol.toUpperCase());
    if (!p) throw new BrokerError(`Unknown symbol ${symbol}`, 'not_found');
    return p;
  };

  interface Feed {
    timer: NodeJS.Timeout;
    listeners: Set<(q: Quote) => void>;
  }
  const feeds = new Map<string, Feed>();

  const emit = (symbol: string, feed: Feed) => {
    const t = now();
    const p = pricers.get(symbol)!;
    if (!p.table.isOpen(t)) return;
    const q = p.quoteAt(t);
    for (const l of [...feed.listeners]) {
      try {
        l({ ...q });
      } catch (err) {
        opts.onListenerError?.(err, symbol);
      }
    }
  };

  return {
    seed,
    specs: () => [...specs.values()].map((s) => ({ ...s })),
    spec: (symbol) => {
      const s = specs.get(symbol.toUpperCase());
      return s ? { ...s } : undefined;
    },
    quoteAt: (symbol, timeMs) => pricer(symbol).quoteAt(instant(timeMs)),
    bidsAt: (symbol, timesMs) => {
      for (const t of timesMs) instant(t);
      return pricer(symbol).bidsAt(timesMs);
    },
    candles: (
      symbol: string,
      timeframe: Timeframe,
      fromMs: number,
      toMs: number,
      nowMs: number,
    ): Candle[] => {
      if (!TIMEFRAMES.has(timeframe)) throw new BrokerError(`Unknown timeframe ${timeframe}`, 'rejected');
      return buildCandles(
        pricer(symbol),
        timeframe,
        instant(fromMs),
        instant(toMs),
        instant(nowMs),
        candleCache,
      );
    },
    convert: (amount, from, to, timeMs) => rates.convert(amount, from, to, instant(timeMs)),
    isOpen: (symbol, timeMs) => pricer(symbol).table.isOpen(instant(timeMs)),
    session: (symbol, timeMs) => pricer(symbol).table.state(instant(timeMs)),
    subscribe: (symbol, onQuote) => {
      const key = pricer(symbol).def.symbol;
      let feed = feeds.get(key);
      if (!feed) {
        const created: Feed = {
          listeners: new Set(),
          timer: setInterval(() => emit(key, created), tickIntervalMs),
        };
        created.timer.unref?.();
        feeds.set(key, created);
        feed = created;
      }
      // Wrap so that the same callback subscribed twice gets two independent subscriptions.
      const listener = (q: Quote) => onQuote(q);
      feed.listeners.add(listener);
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        const f = feeds.get(key);
        if (!f) return;
        f.listeners.delete(listener);
        if (f.listeners.size === 0) {
          clearInterval(f.timer);
          feeds.delete(key);
        }
      };
    },
    currencies: () => rates.currencies(),
    activeTimers: () => feeds.size,
  };
}
