/**
 * One call from the Place a Trade inputs to everything the trade calculations panel and the server's
 * execute route need: stop, size, target(s), projected loss and profit in money and in R.
 * It composes the smaller modules; money across targets is summed in integer minor units.
 */
import { calculateLotSize, type LotSizeResult, type VolumeLimits } from './lot-size';
import { currencyDecimals, formatMoney, fromMinor, sumMinor, toMinor } from './money';
import { roundToDigits } from './rounding';
import {
  profitLoss,
  resolveStopLoss,
  resolveTakeProfit,
  type ResolvedLevel,
  type ResolvedTakeProfit,
  type Side,
  type StopLossMode,
  type TakeProfitMode,
} from './stops';
import { resolveTargets, targetVolumeStep, type ResolvedTarget, type TargetSpec } from './targets';

/** The symbol fields the plan needs (a subset of the broker layer's SymbolInfo). */
export interface PlanSymbol extends VolumeLimits {
  digits: number;
  pip_size: number;
  contract_size: number;
}

export type ProfitPlan =
  | { mode: 'single'; takeProfit: TakeProfitMode }
  /** `rest`: the shares may sum to less than 1; the rest of the volume has no target. */
  | { mode: 'multi'; targets: readonly TargetSpec[]; rest?: boolean }
  /** No take profit at all (the trade is managed by hand). */
  | { mode: 'none' };

export interface TradePlanInput {
  side: Side;
  /** Fill price expected: ask for a BUY, bid for a SELL, or the limit price. */
  entry: number;
  symbol: PlanSymbol;
  account: {
    equity: number;
    currency: string;
    max_lot_size?: number | null;
    /** The account's leverage (100 for 1:100); without it no margin is estimated. */
    leverage?: number | null;
    /** Free margin now, to tell whether the trade fits. */
    free_margin?: number | null;
  };
  /** Risk per trade in percent of equity. */
  riskPercent: number;
  /** Value in the account currency of one unit of the symbol's quote currency (`priceMoveValue`). */
  quoteToAccountRate: number;
  stopLoss: StopLossMode;
  profit: ProfitPlan;
  /** ATR in price units, for ATR targets. */
  atr?: number | null;
}

export interface TradePlan {
  /** Lots to trade (0 when no volume is allowed; see lot.reason). */
  volume: number;
  lot: LotSizeResult;
  stopLoss: ResolvedLevel;
  /** Single-TP plans only. */
  takeProfit: ResolvedTakeProfit | null;
  /** Multi-TP plans only, in rank order. */
  targets: ResolvedTarget[] | null;
  /** Decimals of the account currency's minor unit. */
  decimals: number;
  /** Money lost at the stop, positive, in integer minor units of the account currency. */
  riskMinor: number;
  /** Money made if every target is hit, in integer minor units (0 without a target). */
  rewardMinor: number;
  /** Margin the position needs at the account's leverage (volume × contract × entry in account money ÷ leverage); null without a leverage. */
  margin: number | null;
  /** False when the margin is above the free margin given; null when either is unknown. */
  marginFits: boolean | null;
  /** Money lost at the stop, positive, in the account currency. */
  projectedLoss: number;
  /** Money made if every target is hit, in the account currency. */
  projectedProfit: number;
  /** Reward ÷ risk of the whole plan (volume-weighted for multi targets), 2 decimals. */
  rrRatio: number;
  /** The actual risk in % of equity, 2 decimals. */
  riskPercentActual: number;
}

/** Plan a trade from its inputs. Throws TradeValidationError (bad stops/targets) or RangeError (bad numbers). */
export function planTrade(input: TradePlanInput): TradePlan {
  const { side, entry, symbol, account } = input;
  const ctx = { side, entry, pip_size: symbol.pip_size, digits: symbol.digits };
  const stopLoss = resolveStopLoss(input.stopLoss, ctx);
  const lot = calculateLotSize({
    equity: account.equity,
    riskPercent: input.riskPercent,
    slDistance: stopLoss.distance,
    contractSize: symbol.contract_size,
    quoteToAccountRate: input.quoteToAccountRate,
    limits: symbol,
    maxLotSize: account.max_lot_size ?? null,
    accountCurrency: account.currency,
  });
  const volume = lot.volume;
  const decimals = currencyDecimals(account.currency);
  const pnlAt = (exit: number, lots: number) =>
    profitLoss({
      side,
      entry,
      exit,
      volume: lots,
      contract_size: symbol.contract_size,
      quoteToAccountRate: input.quoteToAccountRate,
      accountCurrency: account.currency,
    });

  const lossMinor = -toMinor(pnlAt(stopLoss.price, volume), decimals);
  let takeProfit: ResolvedTakeProfit | null = null;
  let targets: ResolvedTarget[] | null = null;
  let profitMinor: number;
  let rrRatio: number;

  if (input.profit.mode === 'none') {
    profitMinor = 0;
    rrRatio = 0;
  } else if (input.profit.mode === 'single') {
    takeProfit = resolveTakeProfit(input.profit.takeProfit, ctx, stopLoss.distance);
    profitMinor = toMinor(pnlAt(takeProfit.price, volume), decimals);
    rrRatio = takeProfit.rr;
  } else {
    targets = resolveTargets({
      targets: input.profit.targets,
      ctx,
      slDistance: stopLoss.distance,
      atr: input.atr ?? null,
      volume,
      volumeStep: targetVolumeStep(volume, symbol.volume_step),
      volumeMin: symbol.volume_min,
      rest: input.profit.rest === true,
    });
    profitMinor = sumMinor(targets.map((t) => toMinor(pnlAt(t.price, t.volume), decimals)));
    const weighted = targets.reduce((acc, t) => acc + t.volume * t.distance, 0);
    rrRatio = volume > 0 ? roundToDigits(weighted / (volume * stopLoss.distance), 2) : 0;
  }

  const leverage = account.leverage ?? null;
  const margin =
    leverage !== null && leverage > 0
      ? fromMinor(
          toMinor((volume * symbol.contract_size * entry * input.quoteToAccountRate) / leverage, decimals),
          decimals,
        )
      : null;
  const free = account.free_margin ?? null;
  return {
    volume,
    lot,
    decimals,
    riskMinor: Math.max(0, lossMinor),
    rewardMinor: profitMinor,
    margin,
    marginFits: margin !== null && free !== null ? margin <= free : null,
    stopLoss,
    takeProfit,
    targets,
    projectedLoss: fromMinor(Math.max(0, lossMinor), decimals),
    projectedProfit: fromMinor(profitMinor, decimals),
    rrRatio,
    riskPercentActual: roundToDigits((lot.actualRisk / account.equity) * 100, 2),
  };
}

/**
 * The refusal of a trade whose margin is above the free margin, worded once for the modal (before it
 * sends) and the simulated broker (when it fills), with both amounts in the account currency's
 * minor unit: "Not enough free margin: 1235 JPY required, 1000 JPY available."
 */
export function notEnoughMarginMessage(required: number, available: number, currency: string): string {
  return `Not enough free margin: ${formatMoney(required, currency)} required, ${formatMoney(available, currency)} available.`;
}
