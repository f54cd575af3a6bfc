/**
 * Stop loss and take profit: the three SL modes (pips, price, ATR × multiplier), the three TP modes
 * (RR ratio, pips, price), side checks, RR ratio, and the projected loss and profit of a trade in
 * money and in R. Prices are rounded to the symbol's digits; the SL distance is re-measured from the
 * rounded stop so sizing uses the distance the broker will really hold.
 */
import { currencyDecimals, roundMoney } from './money';
import { pipsToPrice, priceToPips, roundToDigits } from './rounding';

export type Side = 'BUY' | 'SELL';

/** ATR multiplier used when none is given (spec §9). */
export const DEFAULT_ATR_MULTIPLIER = 1.5;

export type StopLossMode =
  | { mode: 'distance'; pips: number }
  /** A distance in price units from the entry, as the trade request carries it. */
  | { mode: 'offset'; distance: number }
  | { mode: 'price'; price: number }
  | { mode: 'atr'; atr: number; multiplier?: number | null };

export type TakeProfitMode =
  | { mode: 'rr_ratio'; rr: number }
  | { mode: 'distance'; pips: number }
  /** A distance in price units from the entry, as the trade request carries it. */
  | { mode: 'offset'; distance: number }
  | { mode: 'price'; price: number }
  /** Used by multi-target plans (tp_type ATR); the single-TP form offers the three modes above. */
  | { mode: 'atr'; atr: number; multiplier?: number | null };

/** Where a trade is placed: side, entry (or reference) price and the symbol's price grid. */
export interface PriceContext {
  side: Side;
  entry: number;
  pip_size: number;
  digits: number;
}

export interface ResolvedLevel {
  /** Absolute price, rounded to the symbol's digits. */
  price: number;
  /** |entry − price| in price units, positive. */
  distance: number;
  /** The distance in pips. */
  pips: number;
}

export interface ResolvedTakeProfit extends ResolvedLevel {
  /** Reward ÷ risk (2 decimals). */
  rr: number;
}

export type TradeField = 'stop_loss' | 'take_profit' | 'entry' | 'targets';

/** A stop or target that is inconsistent with the side or the entry; `message` is meant for the user. */
export class TradeValidationError extends Error {
  readonly field: TradeField;
  constructor(field: TradeField, message: string) {
    super(message);
    this.name = 'TradeValidationError';
    this.field = field;
  }
}

function fmt(price: number, digits: number): string {
  return roundToDigits(price, digits).toFixed(digits);
}

function requirePositive(value: number, field: TradeValidationError['field'], what: string): void {
  if (!Number.isFinite(value) || value <= 0)
    throw new TradeValidationError(field, `${what} must be a positive number.`);
}

function levelAt(ctx: PriceContext, signedDistance: number): ResolvedLevel {
  const price = roundToDigits(ctx.entry + signedDistance, ctx.digits);
  const distance = roundToDigits(Math.abs(ctx.entry - price), ctx.digits + 2);
  return { price, distance, pips: priceToPips(distance, ctx.pip_size) };
}

function levelFromPrice(ctx: PriceContext, rawPrice: number): ResolvedLevel {
  const price = roundToDigits(rawPrice, ctx.digits);
  const distance = roundToDigits(Math.abs(ctx.entry - price), ctx.digits + 2);
  return { price, distance, pips: priceToPips(distance, ctx.pip_size) };
}

/** +1 when a stop loss lies above the entry for this side (SELL), −1 when below (BUY). */
function slSign(side: Side): 1 | -1 {
  return side === 'BUY' ? -1 : 1;
}

/**
 * Side checks: for a BUY the stop is below and the target above the reference price; for a SELL the
 * opposite. Returns the user-facing messages (empty when consistent). `reference` names the price
 * compared against in the messages ("entry price" by default, "current price" when amending).
 */
export function stopSideErrors(
  args: { side: Side; entry: number; stopLoss?: number | null; takeProfit?: number | null; digits: number },
  reference = 'entry price',
): string[] {
  const { side, entry, stopLoss, takeProfit, digits } = args;
  const errors: string[] = [];
  if (stopLoss !== undefined && stopLoss !== null) {
    const ok = side === 'BUY' ? stopLoss < entry : stopLoss > entry;
    if (!ok) {
      errors.push(
        `Stop loss must be ${side === 'BUY' ? 'below' : 'above'} the ${reference} for a ${side} (stop loss ${fmt(stopLoss, digits)}, ${reference} ${fmt(entry, digits)}).`,
      );
    }
  }
  if (takeProfit !== undefined && takeProfit !== null) {
    const ok = side === 'BUY' ? takeProfit > entry : takeProfit < entry;
    if (!ok) {
      errors.push(
        `Take profit must be ${side === 'BUY' ? 'above' : 'below'} the ${reference} for a ${side} (take profit ${fmt(takeProfit, digits)}, ${reference} ${fmt(entry, digits)}).`,
      );
    }
  }
  return errors;
}

/** Throws a TradeValidationError with the first side error, if any. */
export function assertStopSides(
  args: { side: Side; entry: number; stopLoss?: number | null; takeProfit?: number | null; digits: number },
  reference = 'entry price',
): void {
  const slErrors = stopSideErrors({ ...args, takeProfit: null }, reference);
  if (slErrors[0]) throw new TradeValidationError('stop_loss', slErrors[0]);
  const tpErrors = stopSideErrors({ ...args, stopLoss: null }, reference);
  if (tpErrors[0]) throw new TradeValidationError('take_profit', tpErrors[0]);
}

/** Resolve a stop loss from one of its three modes. Throws TradeValidationError on a bad value or side. */
export function resolveStopLoss(mode: StopLossMode, ctx: PriceContext): ResolvedLevel {
  requirePositive(ctx.entry, 'entry', 'Entry price');
  let level: ResolvedLevel;
  switch (mode.mode) {
    case 'distance':
      requirePositive(mode.pips, 'stop_loss', 'Stop-loss distance in pips');
      level = levelAt(ctx, slSign(ctx.side) * pipsToPrice(mode.pips, ctx.pip_size));
      break;
    case 'offset':
      requirePositive(mode.distance, 'stop_loss', 'Stop-loss distance');
      level = levelAt(ctx, slSign(ctx.side) * mode.distance);
      break;
    case 'atr':
      level = levelAt(ctx, slSign(ctx.side) * atrDistance(mode, 'stop_loss'));
      break;
    case 'price':
      level = givenLevel(ctx, mode.price, 'stop_loss');
      break;
  }
  return checkLevel(level, ctx, 'stop_loss');
}

/** ATR × multiplier (default DEFAULT_ATR_MULTIPLIER), both checked positive, for an SL or a TP. */
function atrDistance(
  mode: { atr: number; multiplier?: number | null },
  field: 'stop_loss' | 'take_profit',
): number {
  requirePositive(mode.atr, field, 'ATR');
  const multiplier = mode.multiplier ?? DEFAULT_ATR_MULTIPLIER;
  requirePositive(multiplier, field, 'ATR multiplier');
  return mode.atr * multiplier;
}

/** An SL or TP given as a price: positive, on its own side of the entry, rounded to the digits. */
function givenLevel(ctx: PriceContext, price: number, field: 'stop_loss' | 'take_profit'): ResolvedLevel {
  const isStop = field === 'stop_loss';
  requirePositive(price, field, isStop ? 'Stop-loss price' : 'Take-profit price');
  assertStopSides({
    side: ctx.side,
    entry: ctx.entry,
    digits: ctx.digits,
    ...(isStop ? { stopLoss: price } : { takeProfit: price }),
  });
  return levelFromPrice(ctx, price);
}

/** A resolved SL or TP must lie above zero and, once rounded to the digits, away from the entry. */
function checkLevel(
  level: ResolvedLevel,
  ctx: PriceContext,
  field: 'stop_loss' | 'take_profit',
): ResolvedLevel {
  const name = field === 'stop_loss' ? 'Stop loss' : 'Take profit';
  if (level.price <= 0) {
    throw new TradeValidationError(field, `${name} would be at ${fmt(level.price, ctx.digits)}, below zero.`);
  }
  if (level.distance <= 0) {
    throw new TradeValidationError(field, `${name} rounds to the entry price; choose a larger distance.`);
  }
  return level;
}

/**
 * Resolve a take profit from one of its three modes, given the resolved SL distance (for RR mode and
 * for the resulting RR). Throws TradeValidationError on a bad value or side.
 */
export function resolveTakeProfit(
  mode: TakeProfitMode,
  ctx: PriceContext,
  slDistance: number,
): ResolvedTakeProfit {
  requirePositive(ctx.entry, 'entry', 'Entry price');
  requirePositive(slDistance, 'stop_loss', 'Stop-loss distance');
  const tpSign = -slSign(ctx.side);
  let level: ResolvedLevel;
  switch (mode.mode) {
    case 'rr_ratio':
      requirePositive(mode.rr, 'take_profit', 'RR ratio');
      level = levelAt(ctx, tpSign * slDistance * mode.rr);
      break;
    case 'distance':
      requirePositive(mode.pips, 'take_profit', 'Take-profit distance in pips');
      level = levelAt(ctx, tpSign * pipsToPrice(mode.pips, ctx.pip_size));
      break;
    case 'offset':
      requirePositive(mode.distance, 'take_profit', 'Take-profit distance');
      level = levelAt(ctx, tpSign * mode.distance);
      break;
    case 'atr':
      level = levelAt(ctx, tpSign * atrDistance(mode, 'take_profit'));
      break;
    case 'price':
      level = givenLevel(ctx, mode.price, 'take_profit');
      break;
  }
  checkLevel(level, ctx, 'take_profit');
  return { ...level, rr: roundToDigits(level.distance / slDistance, 2) };
}

/** Reward ÷ risk of a trade, 2 decimals: |tp − entry| ÷ |entry − sl|. Throws when the stop equals the entry. */
export function rrRatio(entry: number, stopLoss: number, takeProfit: number): number {
  const risk = Math.abs(entry - stopLoss);
  if (!(risk > 0))
    throw new TradeValidationError(
      'stop_loss',
      'Stop loss equals the entry price: the RR ratio is undefined.',
    );
  return roundToDigits(Math.abs(takeProfit - entry) / risk, 2);
}

export interface PnlInput {
  side: Side;
  entry: number;
  exit: number;
  /** Lots. */
  volume: number;
  contract_size: number;
  /** Value in the account currency of one unit of the quote currency (see `priceMoveValue`). */
  quoteToAccountRate: number;
  accountCurrency: string;
}

/** Profit (+) or loss (−) in the account currency of closing `volume` at `exit`, rounded to the minor unit. */
export function profitLoss(input: PnlInput): number {
  const direction = input.side === 'BUY' ? 1 : -1;
  const raw =
    direction * (input.exit - input.entry) * input.volume * input.contract_size * input.quoteToAccountRate;
  return roundMoney(raw, currencyDecimals(input.accountCurrency));
}

export interface Projection {
  /** Money lost if the stop is hit, as a positive amount in the account currency. */
  projectedLoss: number;
  /** Money made if the target is hit, in the account currency. */
  projectedProfit: number;
  /** The loss in R: always −1 (the stop is one R by definition). */
  lossR: number;
  /** The profit in R, equal to the RR ratio. */
  profitR: number;
  rrRatio: number;
}

/** Projected loss and profit of a trade in money and in R. Validates sides first. */
export function projectTrade(input: {
  side: Side;
  entry: number;
  stopLoss: number;
  takeProfit: number;
  volume: number;
  contract_size: number;
  quoteToAccountRate: number;
  accountCurrency: string;
  digits: number;
}): Projection {
  assertStopSides(input);
  const common = {
    side: input.side,
    entry: input.entry,
    volume: input.volume,
    contract_size: input.contract_size,
    quoteToAccountRate: input.quoteToAccountRate,
    accountCurrency: input.accountCurrency,
  };
  const loss = profitLoss({ ...common, exit: input.stopLoss });
  const profit = profitLoss({ ...common, exit: input.takeProfit });
  const rr = rrRatio(input.entry, input.stopLoss, input.takeProfit);
  return {
    projectedLoss: -loss === 0 ? 0 : -loss,
    projectedProfit: profit,
    lossR: -1,
    profitR: rr,
    rrRatio: rr,
  };
}
