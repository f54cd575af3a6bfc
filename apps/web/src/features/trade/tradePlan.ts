import {
  conversionPairsToWatch,
  roundToDigits,
  DEFAULT_ATR_MULTIPLIER,
  notEnoughMarginMessage,
  planTrade,
  quoteToAccountRate,
  TradeValidationError,
  ConversionError,
  type StopLossMode,
  type TakeProfitMode,
  type TargetSpec,
  type TradePlan,
} from '@tradedesk/domain';
import type { SymbolInfoBody, TradeExecuteRequest } from '@tradedesk/contract';

/** Pure: no React, no fetch, so the server's tests run the very same code the modal runs. */
type Direction = 'BUY' | 'SELL';
type TradeRequest = TradeExecuteRequest;

export const TRADE_TIMEFRAMES = ['1M', '5M', '15M', '1H', '4H', '1D'] as const;
export const DEFAULT_TIMEFRAME = '15M';
/** Three fixed choices (spec section 9; their names are not given there). */
export const TRADERS = ['Trader 1', 'Trader 2', 'Trader 3'] as const;
export const DEFAULT_RISK_PERCENT = 0.5;
/** The stop distance of a symbol with a tight spread, and the least any symbol gets by default. */
export const DEFAULT_SL_PIPS = 20;
/** A default stop sits this many spreads away, so the spread alone never closes the trade at once. */
export const SL_SPREAD_MULTIPLE = 10;

/**
 * The default stop distance in whole pips for a symbol at its current spread: max(20 pips, 10 × spread),
 * with the reason to show under the field. 20 pips on BTCUSD (pip 1, spread ~15) would sit inside the
 * spread; there it is 150.
 */
export function defaultStopDistance(
  info: Pick<SymbolInfoBody, 'pip_size'>,
  bid: number,
  ask: number,
): { pips: number; reason: string } {
  const spreadPips = (ask - bid) / info.pip_size;
  const bySpread = Math.round(SL_SPREAD_MULTIPLE * spreadPips);
  if (Number.isFinite(bySpread) && bySpread > DEFAULT_SL_PIPS)
    return { pips: bySpread, reason: `Default: ${SL_SPREAD_MULTIPLE} × spread` };
  return { pips: DEFAULT_SL_PIPS, reason: `Default: ${DEFAULT_SL_PIPS} pips` };
}

export type SlMode = 'distance' | 'price' | 'atr';
export type TpMode = 'rr_ratio' | 'distance' | 'price';
export type OrderType = 'MARKET' | 'LIMIT';

/** One row of the partial targets editor; share in percent, value read by tp_type. */
export interface TargetRow {
  share: number | string;
  tp_type: 'RR' | 'ATR' | 'PRICE';
  value: number | string;
}

export function rowsFromTargets(targets: readonly TargetSpec[]): TargetRow[] {
  return [...targets]
    .sort((a, b) => a.rank - b.rank)
    .map((t) => ({
      share: roundToDigits(t.share * 100, 2),
      tp_type: t.tp_type,
      value:
        t.tp_type === 'RR'
          ? (t.rr ?? '')
          : t.tp_type === 'ATR'
            ? (t.atr_multiplier ?? DEFAULT_ATR_MULTIPLIER)
            : (t.price ?? ''),
    }));
}

const n = (v: number | string): number => (v === '' ? NaN : Number(v));

export function targetsFromRows(rows: readonly TargetRow[]): TargetSpec[] {
  return rows.map((r, i) => {
    const value = n(r.value);
    const base = { rank: i + 1, share: n(r.share) / 100, tp_type: r.tp_type };
    if (r.tp_type === 'RR') return { ...base, rr: value };
    if (r.tp_type === 'ATR') return { ...base, atr_multiplier: value };
    return { ...base, price: value };
  });
}

export interface TradeForm {
  accountId: string;
  symbol: string;
  direction: Direction;
  orderType: OrderType;
  limitPrice: number | string;
  riskPercent: number | string;
  slMode: SlMode;
  slDistance: number | string;
  slPrice: number | string;
  atrMultiplier: number | string;
  profitMode: 'single' | 'multi';
  tpMode: TpMode;
  rr: number | string;
  tpDistance: number | string;
  tpPrice: number | string;
  targets: TargetRow[];
  timeframe: string;
  reason: string;
  trader: string;
}

export interface PlanContext {
  bid: number | null;
  ask: number | null;
  info: SymbolInfoBody | undefined;
  equity: number | undefined;
  /** Why the equity could not be read, when it could not. */
  equityError?: string | null;
  accountCurrency: string | undefined;
  maxLotSize: number | null | undefined;
  atr: number | null | undefined;
  /** Mid prices of the pairs that convert the quote currency (`conversionSymbols`), null until priced. */
  conversion: Array<{ symbol: string; mid: number | null }>;
  /** The account's leverage and free margin, for the margin the trade needs. */
  leverage?: number | null;
  freeMargin?: number | null;
  /** Why the symbol info did not load, in the server's words. */
  infoError?: string | null;
}

/**
 * The symbols whose prices convert the symbol's quote currency into the account currency, when the
 * symbol's own price cannot: the direct pair, else the legs of the cross through USD (USDCAD on a EUR
 * account needs EURUSD; EURJPY on a GBP account needs GBPJPY, or GBPUSD and USDJPY). Only symbols the
 * account trades (`tradable`, its broker's symbol list) can be watched for that.
 */
export function conversionSymbols(
  info: Pick<SymbolInfoBody, 'base_currency' | 'quote_currency'> | undefined,
  accountCurrency: string | undefined,
  tradable: readonly string[],
): string[] {
  if (!info || !accountCurrency) return [];
  return conversionPairsToWatch(info, accountCurrency, tradable);
}

export type PlanResult =
  { ok: true; plan: TradePlan; entry: number } | { ok: false; waiting: boolean; message: string };

/** Plan the trade exactly as the server will: the domain's planTrade with the live price. */
export function computePlan(form: TradeForm, ctx: PlanContext): PlanResult {
  const { info } = ctx;
  if (!info) {
    // The broker's reason (e.g. a 502 from a bridge that is down) instead of a spinner that never ends.
    if (ctx.infoError) return { ok: false, waiting: false, message: ctx.infoError };
    return { ok: false, waiting: true, message: 'Loading symbol info…' };
  }
  if (ctx.equity === undefined || !ctx.accountCurrency) {
    if (ctx.equityError)
      return { ok: false, waiting: false, message: `Account equity unavailable: ${ctx.equityError}` };
    return { ok: false, waiting: true, message: 'Loading account equity…' };
  }
  const livePrice = form.direction === 'BUY' ? ctx.ask : ctx.bid;
  const entry = form.orderType === 'LIMIT' ? n(form.limitPrice) : livePrice;
  if (form.orderType === 'LIMIT' && !(Number.isFinite(entry) && (entry as number) > 0))
    return { ok: false, waiting: false, message: 'Enter the entry price of the limit order.' };
  if (entry === null || !Number.isFinite(entry))
    return { ok: false, waiting: true, message: 'Waiting for a live price…' };
  const risk = n(form.riskPercent);
  if (!(risk > 0 && risk <= 100))
    return { ok: false, waiting: false, message: 'Risk % must be greater than 0 and at most 100.' };

  let stopLoss: StopLossMode;
  if (form.slMode === 'distance') stopLoss = { mode: 'distance', pips: n(form.slDistance) };
  else if (form.slMode === 'price') stopLoss = { mode: 'price', price: n(form.slPrice) };
  else {
    if (ctx.atr === undefined) return { ok: false, waiting: true, message: 'Loading ATR…' };
    if (ctx.atr === null)
      return { ok: false, waiting: false, message: 'ATR is not available for this symbol and timeframe.' };
    stopLoss = { mode: 'atr', atr: ctx.atr, multiplier: n(form.atrMultiplier) };
  }

  let takeProfit: TakeProfitMode;
  if (form.tpMode === 'rr_ratio') takeProfit = { mode: 'rr_ratio', rr: n(form.rr) };
  else if (form.tpMode === 'distance') takeProfit = { mode: 'distance', pips: n(form.tpDistance) };
  else takeProfit = { mode: 'price', price: n(form.tpPrice) };

  const mid = ctx.bid !== null && ctx.ask !== null ? (ctx.bid + ctx.ask) / 2 : (entry ?? undefined);
  const quotes: Record<string, number> = {};
  for (const c of ctx.conversion) if (c.mid) quotes[c.symbol] = c.mid;
  let rate: number;
  try {
    rate = quoteToAccountRate(info, ctx.accountCurrency, quotes, mid);
  } catch (e) {
    if (e instanceof ConversionError) {
      const waiting = ctx.conversion.some((c) => !c.mid);
      return { ok: false, waiting, message: waiting ? 'Waiting for a conversion rate…' : e.message };
    }
    throw e;
  }

  try {
    const plan = planTrade({
      side: form.direction,
      entry,
      symbol: info,
      account: {
        equity: ctx.equity,
        currency: ctx.accountCurrency,
        max_lot_size: ctx.maxLotSize ?? null,
        leverage: ctx.leverage ?? null,
        free_margin: ctx.freeMargin ?? null,
      },
      riskPercent: risk,
      quoteToAccountRate: rate,
      stopLoss,
      profit:
        form.profitMode === 'single'
          ? { mode: 'single', takeProfit }
          : { mode: 'multi', targets: targetsFromRows(form.targets) },
      atr: ctx.atr ?? null,
    });
    return { ok: true, plan, entry };
  } catch (e) {
    if (e instanceof TradeValidationError || e instanceof RangeError)
      return { ok: false, waiting: false, message: e.message };
    throw e;
  }
}

/**
 * Why the modal keeps a plan from being sent, or null when it can go: no volume, the minimum volume
 * not yet confirmed, or a margin above the free margin (worded as the broker would refuse it).
 */
export function planRefusal(
  plan: TradePlan,
  account: { freeMargin: number | null | undefined; currency: string | undefined },
  minVolumeOk: boolean,
): string | null {
  if (plan.volume <= 0) return plan.lot.reason ?? 'The risk is too small for the minimum volume.';
  if (plan.lot.exceedsRequestedRisk && !minVolumeOk)
    return `${plan.lot.reason} Tick the box to place it at the minimum volume anyway.`;
  if (plan.marginFits === false && plan.margin !== null && account.freeMargin != null)
    return notEnoughMarginMessage(plan.margin, account.freeMargin, account.currency ?? '');
  return null;
}

/**
 * The spec's trade request from the form and its plan (distances in price units, see the contract).
 * `allowMinVolume` only once the trader confirmed that the minimum volume risks more than asked.
 */
export function tradeRequest(form: TradeForm, plan: TradePlan, allowMinVolume = false): TradeRequest {
  const single = form.profitMode === 'single' ? plan.takeProfit : null;
  return {
    account_id: form.accountId,
    symbol: form.symbol,
    lot_size: plan.volume,
    direction: form.direction,
    order_type: form.orderType,
    limit_price: form.orderType === 'LIMIT' ? n(form.limitPrice) : null,
    risk_percent: n(form.riskPercent),
    stop_loss_distance: plan.stopLoss.distance,
    take_profit: single ? single.price : null,
    take_profit_distance: single ? single.distance : null,
    rr_ratio: plan.rrRatio,
    projected_profit: plan.projectedProfit,
    projected_loss: plan.projectedLoss,
    atr_multiplier: form.slMode === 'atr' ? n(form.atrMultiplier) : null,
    reason: form.reason.trim() || null,
    trader: form.trader,
    timeframe: form.timeframe,
    ...(form.profitMode === 'multi'
      ? { partial_profit: true, targets: targetsFromRows(form.targets) }
      : { partial_profit: false }),
    ...(allowMinVolume && plan.lot.exceedsRequestedRisk ? { allow_min_volume: true } : {}),
  };
}
