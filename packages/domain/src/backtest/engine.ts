/**
 * Backtest engine: bar-by-bar order handling over bid bars (docs/backtests.md states every rule).
 *
 * - A buy fills at the ask (bid + spread), a sell at the bid; a long exits at the bid, a short at the ask.
 * - Orders decided on bar i's close act from bar i+1. A market order fills at the price `slippageMs`
 *   after bar i+1's open: exact when the bars carry it (`latencyBid`, SIM data), else interpolated
 *   linearly between that bar's open and close.
 * - Limit and stop entries wait until a bar's range reaches them; a gap fills at the open.
 * - SL and TP: when both lie inside one bar the SL is assumed first (worst case); a gap through the
 *   level fills at the open; every SL fill is `slippageR` R worse. An exit inside the entry bar is
 *   taken (worst case again) and flagged `entryBarExit`.
 * - Targets (order-targets.ts): each closes its part at its level by the same rules as a take profit,
 *   nearest first; the trade stays one trade whose parts add up.
 * - Volume by risk through `calculateLotSize` (the Place a Trade modal's function); margin checked
 *   against equity at `leverage`; commission per lot per side; swap is not modelled.
 */
import { calculateLotSize } from '../lot-size';
import { roundMoney, currencyDecimals } from '../money';
import { roundToDigits } from '../rounding';
import { closedTrade, setReach, type OpenPosition } from './open-position';
import { decodeOrderTargets, StrategyOrderError, targetLegs, targetPrices } from './order-targets';
import {
  ORDER_FIELDS,
  ORDER_KIND,
  ORDER_SIDE,
  type BacktestBars,
  type BacktestResult,
  type BacktestSettings,
  type BacktestSymbol,
  type BacktestTrade,
  type BacktestTradePart,
  type ExitReason,
} from './types';
import { unpackEntry, type EntryFields } from './entry-order';

interface Pending extends EntryFields {
  dir: 1 | -1;
}

export interface BacktestEngine {
  /** Processes bar i: pending fills, SL/TP, equity at the close. Call once per bar, in order. */
  bar(i: number): void;
  /**
   * Orders decided at bar i's close (packed, ORDER_FIELDS numbers each), with their targets' side
   * list when any order has targets (TARGET_FIELDS).
   */
  submit(i: number, packed: ArrayLike<number>, targets?: ArrayLike<number> | null): void;
  /** The newest open position, for the strategy's view. */
  position(): Readonly<OpenPosition> | null;
  balance(): number;
  /** True when the open positions changed in the last `bar()` call. */
  changed(): boolean;
  /**
   * The first bar index ≥ `from` (at most `from + limit`) whose `bar()` may change anything but equity:
   * `from` with orders waiting, else the first bar touching an open position's SL or TP. A per-bar
   * strategy can run up to there without the engine in between.
   */
  quietUntil(from: number, limit?: number): number;
  finish(): BacktestResult;
}

export function createBacktestEngine(
  bars: BacktestBars,
  symbol: BacktestSymbol,
  settings: BacktestSettings,
): BacktestEngine {
  const n = bars.close.length;
  const decimals = currencyDecimals(settings.accountCurrency);
  const valuePerPrice = symbol.contractSize * symbol.quoteToAccountRate;
  const latency = Math.min(1, Math.max(0, settings.slippageMs / settings.barMs));
  const equity = new Float64Array(n);
  const exposed = new Uint8Array(n);
  const trades: BacktestTrade[] = [];
  const warnings = { entryBarExits: 0, marginRejected: 0, volumeRejected: 0 };
  let open: OpenPosition[] = [];
  let pending: Pending[] = [];
  let balance = settings.initialBalance;
  let changed = false;
  let closeRequested = false;

  const spreadAt = (i: number) => bars.spread?.[i] ?? settings.spread;
  /** The bid a market order sent at bar i's open fills at, `slippageMs` later. */
  const latencyBidAt = (i: number) => {
    const exact = bars.latencyBid?.[i];
    if (exact !== undefined && !Number.isNaN(exact)) return exact;
    const o = bars.open[i]!;
    return o + (bars.close[i]! - o) * latency;
  };
  const money = (x: number) => roundMoney(x, decimals);

  /**
   * Closes `lots` of p (all that is left by default) at `price`: the balance takes the part's P/L
   * less its exit commission. The entry commission is shared out per lot, the last part taking what
   * is left, so the parts add up to the trade; the trade is recorded once nothing is left (true).
   */
  function close(p: OpenPosition, i: number, price: number, reason: ExitReason, lots = p.volume): boolean {
    const last = lots >= p.volume - 1e-9;
    const volume = last ? p.volume : lots;
    const exitCommission = money(settings.commissionPerLot * volume);
    const entryShare = last ? p.entryCommission : money(settings.commissionPerLot * volume);
    const gross = money((price - p.entryPrice) * p.dir * volume * valuePerPrice);
    const commission = money(entryShare + exitCommission);
    const pnl = money(gross - commission);
    balance = money(balance + gross - exitCommission);
    p.entryCommission = money(p.entryCommission - entryShare);
    p.volume = last ? 0 : roundToDigits(p.volume - volume, 8);
    changed = true;
    const part: BacktestTradePart = {
      exitIndex: i,
      exitTime: bars.time[i]!,
      exitPrice: price,
      volume,
      pnl,
      commission,
      r: p.riskMoney > 0 ? pnl / p.riskMoney : 0,
      exitReason: reason,
    };
    if (!last) p.parts.push(part);
    else trades.push(closedTrade(p, bars.time, part, money));
    return last;
  }

  function markToMarket(i: number): number {
    let e = balance;
    const close = bars.close[i]!;
    for (let k = 0; k < open.length; k++) {
      const p = open[k]!;
      const exit = p.dir === 1 ? close : close + spreadAt(i);
      e += (exit - p.entryPrice) * p.dir * p.volume * valuePerPrice - settings.commissionPerLot * p.volume;
    }
    return e;
  }

  /** Whether bar i touches any open position's SL or TP (a plain loop: this runs on every bar). */
  function anyTouched(i: number): boolean {
    for (let k = 0; k < open.length; k++) if (touches(open[k]!, i)) return true;
    return false;
  }

  function enter(o: Pending, i: number, fill: number) {
    if (open.length >= settings.maxOpenPositions) return;
    const sl = Number.isNaN(o.sl) ? (Number.isNaN(o.slDistance) ? NaN : fill - o.dir * o.slDistance) : o.sl;
    if (Number.isNaN(sl))
      throw new StrategyOrderError('buy() and sell() need sl or sl_distance: positions are sized by risk.');
    const distance = (fill - sl) * o.dir;
    if (!(distance > 0))
      throw new StrategyOrderError(`The stop loss ${sl} is on the wrong side of the fill price ${fill}.`);
    const tp = Number.isNaN(o.tp) ? (Number.isNaN(o.tpR) ? NaN : fill + o.dir * o.tpR * distance) : o.tp;
    const prices = o.targets ? targetPrices(o.targets, o.dir, fill, distance) : null;
    if (prices && !Number.isNaN(tp))
      throw new StrategyOrderError('buy() and sell() take targets or tp / tp_r, not both.');
    if (prices && !prices.ok) throw new StrategyOrderError(`The targets cannot be used: ${prices.reason}.`);
    const eq = markToMarket(i === 0 ? 0 : i - 1);
    const lot = calculateLotSize({
      equity: eq,
      riskPercent: Number.isNaN(o.risk) ? settings.riskPercent : o.risk,
      slDistance: distance,
      contractSize: symbol.contractSize,
      quoteToAccountRate: symbol.quoteToAccountRate,
      limits: { volume_min: symbol.volumeMin, volume_step: symbol.volumeStep, volume_max: symbol.volumeMax },
      accountCurrency: settings.accountCurrency,
    });
    if (!(lot.volume > 0)) {
      warnings.volumeRejected++;
      return;
    }
    const usedMargin = open.reduce(
      (m, p) => m + (p.volume * valuePerPrice * p.entryPrice) / settings.leverage,
      0,
    );
    if (usedMargin + (lot.volume * valuePerPrice * fill) / settings.leverage > eq) {
      warnings.marginRejected++;
      return;
    }
    const commission = money(settings.commissionPerLot * lot.volume);
    balance = money(balance - commission);
    const legs = prices?.ok ? targetLegs(o.targets!, prices.prices, lot.volume, symbol) : null;
    const p: OpenPosition = {
      dir: o.dir,
      entryIndex: i,
      entryPrice: fill,
      volume: lot.volume,
      initialVolume: lot.volume,
      sl,
      tp: legs ? legs.tp : tp,
      targets: legs ? legs.partials : [],
      reach: NaN,
      initialSl: sl,
      riskMoney: distance * lot.volume * valuePerPrice,
      entryCommission: commission,
      entryBarExit: false,
      parts: [],
    };
    setReach(p);
    open.push(p);
    changed = true;
  }

  function fillPending(i: number) {
    const spread = spreadAt(i);
    const o = bars.open[i]!;
    const keep: Pending[] = [];
    for (const p of pending) {
      const buy = p.dir === 1;
      const [lo, hi, op] = buy
        ? [bars.low[i]! + spread, bars.high[i]! + spread, o + spread]
        : [bars.low[i]!, bars.high[i]!, o];
      let fill = NaN;
      if (p.kind === ORDER_KIND.market) {
        const bid = latencyBidAt(i);
        fill = buy ? bid + spread : bid;
      } else if (p.kind === ORDER_KIND.limit) {
        if (buy ? lo <= p.price : hi >= p.price) fill = buy ? Math.min(p.price, op) : Math.max(p.price, op);
      } else if (buy ? hi >= p.price : lo <= p.price) {
        fill = buy ? Math.max(p.price, op) : Math.min(p.price, op);
      }
      if (Number.isNaN(fill)) keep.push(p);
      else enter(p, i, fill);
    }
    pending = keep;
  }

  function touches(p: OpenPosition, i: number): boolean {
    const off = p.dir === 1 ? 0 : spreadAt(i);
    if (!Number.isNaN(p.sl) && (p.dir === 1 ? bars.low[i]! + off <= p.sl : bars.high[i]! + off >= p.sl))
      return true;
    return (
      !Number.isNaN(p.reach) && (p.dir === 1 ? bars.high[i]! + off >= p.reach : bars.low[i]! + off <= p.reach)
    );
  }

  function exits(i: number) {
    // Most bars touch no level: leave the list as it is (no allocation per bar).
    if (!anyTouched(i)) return;
    const spread = spreadAt(i);
    const still: OpenPosition[] = [];
    for (const p of open) {
      // The side the position exits on: a long sells at the bid, a short buys at the ask.
      const off = p.dir === 1 ? 0 : spread;
      const lo = bars.low[i]! + off;
      const hi = bars.high[i]! + off;
      const op = bars.open[i]! + off;
      const reached = (level: number) => !Number.isNaN(level) && (p.dir === 1 ? hi >= level : lo <= level);
      const slHit = !Number.isNaN(p.sl) && (p.dir === 1 ? lo <= p.sl : hi >= p.sl);
      if (!slHit && !reached(p.reach)) {
        still.push(p);
        continue;
      }
      if (p.entryIndex === i && !p.entryBarExit) {
        p.entryBarExit = true;
        warnings.entryBarExits++;
      }
      if (slHit) {
        const level = p.entryIndex === i ? p.sl : p.dir === 1 ? Math.min(p.sl, op) : Math.max(p.sl, op);
        const r = Math.abs(p.entryPrice - p.initialSl);
        close(p, i, level - p.dir * settings.slippageR * r, 'sl');
        continue;
      }
      // Profit-side levels nearest first: each target closes its part, the take profit what is left.
      const fillAt = (level: number) =>
        p.entryIndex === i ? level : p.dir === 1 ? Math.max(level, op) : Math.min(level, op);
      let closed = false;
      while (!closed && reached(p.reach)) {
        const next = p.targets[0];
        if (next && next.price === p.reach) {
          p.targets.shift();
          closed = close(p, i, fillAt(next.price), 'tp', next.volume);
        } else closed = close(p, i, fillAt(p.tp), 'tp');
        setReach(p);
      }
      if (!closed) still.push(p);
    }
    open = still;
  }

  return {
    bar(i) {
      changed = false;
      if (closeRequested) {
        closeRequested = false;
        const bid = latencyBidAt(i);
        for (const p of open) close(p, i, p.dir === 1 ? bid : bid + spreadAt(i), 'signal');
        open = [];
      }
      if (pending.length) fillPending(i);
      if (open.length) exits(i);
      equity[i] = open.length ? markToMarket(i) : balance;
      exposed[i] = open.length ? 1 : 0;
    },
    submit(i, packed, targets) {
      const lists = targets?.length
        ? decodeOrderTargets(targets, Math.floor(packed.length / ORDER_FIELDS))
        : null;
      for (let k = 0; k + ORDER_FIELDS <= packed.length; k += ORDER_FIELDS) {
        const side = packed[k]!;
        if (side === ORDER_SIDE.close) {
          // Closes at the next bar's fill price, like a market order.
          pending = [];
          closeRequested = true;
        } else if (side === ORDER_SIDE.setStop || side === ORDER_SIDE.setTarget) {
          for (const p of open) {
            if (side === ORDER_SIDE.setStop) p.sl = packed[k + 3]!;
            else p.tp = packed[k + 4]!;
            setReach(p);
          }
        } else {
          pending.push({
            dir: side > 0 ? 1 : -1,
            ...unpackEntry(packed, k, lists?.[k / ORDER_FIELDS] ?? null),
          });
        }
      }
    },
    position: () => open[open.length - 1] ?? null,
    balance: () => balance,
    changed: () => changed,
    quietUntil(from, limit = 4096) {
      if (pending.length || closeRequested) return from;
      const end = Math.min(n, from + limit);
      if (!open.length) return end;
      for (let k = from; k < end; k++) if (anyTouched(k)) return k;
      return end;
    },
    finish() {
      const last = n - 1;
      for (const p of open)
        close(p, last, p.dir === 1 ? bars.close[last]! : bars.close[last]! + spreadAt(last), 'end');
      open = [];
      if (n) equity[last] = balance;
      return { trades, equity, exposed, warnings };
    },
  };
}
