/**
 * The server's side of one trade plan: a trade request (as the Place a Trade modal or any other
 * caller sends it) is planned with `planTrade` on the server's own figures, and the client's lot is
 * checked against that plan. Risk is a ceiling: a client lot above the plan is refused, one at most
 * one volume step below it is accepted, and the plan's own lot is the one placed.
 */
import { formatMoney, fromMinor } from './money';
import { priceToPips } from './rounding';
import type { Side, TakeProfitMode } from './stops';
import { DEFAULT_TARGETS, type TargetSpec } from './targets';
import { planTrade, type PlanSymbol, type ProfitPlan, type TradePlan } from './trade-plan';

/** The fields of a trade request the plan reads (a structural subset of the contract's request). */
export interface TradeRequestFields {
  direction: Side;
  lot_size: number;
  risk_percent: number;
  /** Price units from the entry to the stop. */
  stop_loss_distance: number;
  take_profit?: number | null;
  take_profit_distance?: number | null;
  rr_ratio?: number | null;
  partial_profit?: boolean | null;
  targets?: readonly TargetSpec[] | null;
  /** With targets: their shares may sum to less than 1, the rest staying open without a target. */
  keep_rest_open?: boolean | null;
  allow_min_volume?: boolean | null;
}

/** What the server knows at the moment it plans: never taken from the client. */
export interface PlanFacts {
  /** Ask for a BUY, bid for a SELL, or the limit price. */
  entry: number;
  symbol: PlanSymbol & { symbol: string };
  account: {
    equity: number;
    currency: string;
    max_lot_size?: number | null;
    leverage?: number | null;
    free_margin?: number | null;
  };
  quoteToAccountRate: number;
  atr?: number | null;
}

/** The take profit a request asks for: a price, else a distance, else an RR multiple, else none. */
export function profitPlanOf(req: TradeRequestFields): ProfitPlan {
  const multi = req.partial_profit === true || (req.targets?.length ?? 0) > 0;
  if (multi)
    return {
      mode: 'multi',
      targets: req.targets?.length ? req.targets : DEFAULT_TARGETS,
      rest: req.keep_rest_open === true,
    };
  let tp: TakeProfitMode | null = null;
  if (typeof req.take_profit === 'number') tp = { mode: 'price', price: req.take_profit };
  else if (typeof req.take_profit_distance === 'number')
    tp = { mode: 'offset', distance: req.take_profit_distance };
  else if (typeof req.rr_ratio === 'number') tp = { mode: 'rr_ratio', rr: req.rr_ratio };
  return tp ? { mode: 'single', takeProfit: tp } : { mode: 'none' };
}

/** Plan a request on the server's facts. Throws TradeValidationError or RangeError like planTrade. */
export function planRequest(req: TradeRequestFields, facts: PlanFacts): TradePlan {
  return planTrade({
    side: req.direction,
    entry: facts.entry,
    symbol: facts.symbol,
    account: facts.account,
    riskPercent: req.risk_percent,
    quoteToAccountRate: facts.quoteToAccountRate,
    stopLoss: { mode: 'offset', distance: req.stop_loss_distance },
    profit: profitPlanOf(req),
    atr: facts.atr ?? null,
  });
}

export type RequestCheck = { ok: true } | { ok: false; detail: string };

const LOT_EPSILON = 1e-9;
const lots = (v: number) => v.toFixed(2);

/**
 * Is the client's lot acceptable for the server's plan? Refuses a plan without volume, a lot above
 * the plan's, one more than a volume step below it, and a minimum volume that risks more than asked
 * unless the request says `allow_min_volume` (the trader confirmed the warning).
 */
export function checkTradeRequest(req: TradeRequestFields, plan: TradePlan, facts: PlanFacts): RequestCheck {
  const { symbol, account } = facts;
  if (plan.volume <= 0)
    return { ok: false, detail: plan.lot.reason ?? 'No volume can be traded for this risk.' };
  if (plan.lot.exceedsRequestedRisk && req.allow_min_volume !== true) {
    return {
      ok: false,
      detail:
        `${plan.lot.reason} The order was not placed: confirm the minimum volume (allow_min_volume) ` +
        `or raise the risk or the stop distance.`,
    };
  }
  const sizing =
    `${req.risk_percent}% of equity ${formatMoney(account.equity, account.currency)} with the stop ` +
    `${req.stop_loss_distance} away (${priceToPips(req.stop_loss_distance, symbol.pip_size)} pips) allows ` +
    `${lots(plan.volume)} lots on ${symbol.symbol}` +
    (plan.lot.limitedBy && plan.lot.limitedBy !== 'volume_min' ? ` (${plan.lot.reason})` : '');
  if (req.lot_size > plan.volume + LOT_EPSILON) {
    return {
      ok: false,
      detail: `lot_size ${req.lot_size} is above the plan: ${sizing}. Risk is a ceiling; recalculate the lot size and try again.`,
    };
  }
  if (req.lot_size < plan.volume - symbol.volume_step - LOT_EPSILON) {
    return {
      ok: false,
      detail: `lot_size ${req.lot_size} is more than one volume step (${symbol.volume_step}) below the plan: ${sizing}. Recalculate the lot size and try again.`,
    };
  }
  return { ok: true };
}

/** The plan's money in the account currency, from its integer minor units. */
export function planMoney(plan: TradePlan): { risk: number; reward: number } {
  return {
    risk: fromMinor(plan.riskMinor, plan.decimals),
    reward: fromMinor(plan.rewardMinor, plan.decimals),
  };
}
