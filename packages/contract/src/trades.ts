import { z } from 'zod';
import { text } from './common';

/**
 * Trading API (spec section 7, "Trading"). Units, so that the client and the server agree:
 * - prices (limit_price, take_profit, stop_loss, specific_price) are absolute prices of the symbol;
 * - `stop_loss_distance` and `take_profit_distance` are distances in PRICE units from the entry
 *   (EURUSD 20 pips = 0.0020, USDJPY 35 pips = 0.35, XAUUSD $5 = 5.0), never pips;
 * - `lot_size` is in lots; `risk_percent` is percent of equity (0.5 means 0.5 %);
 * - `projected_profit` and `projected_loss` are money in the account currency (informative: the
 *   server recomputes and stores its own figures);
 * - `atr_multiplier` is the multiple of ATR the client used for an ATR stop (informative).
 */
export const TRADE_MESSAGES = {
  executed: 'Trade executed successfully!',
  closed: 'Trade closed successfully!',
  volumePositive: 'Volume must be a positive number.',
  volumeTooLarge: (remaining: number) =>
    `Volume to close must be less than the remaining lot size (${remaining}). To close the whole position, use the main Close button.`,
  numberRequired: 'This field is required and must be a number.',
  takeProfitNumber: 'Take profit must be a valid number.',
  slUpdated: 'Stop loss updated successfully.',
  tpUpdated: 'Take profit updated successfully.',
  partiallyClosed: 'Trade partially closed successfully.',
  idempotencyBusy: 'A request with this Idempotency-Key is still being processed; retry shortly.',
} as const;

/**
 * Sane bounds of every number a trade request carries, so that out-of-range input is a 400 naming
 * the field before any arithmetic runs (1e308 overflows every price calculation).
 */
export const TRADE_BOUNDS = {
  /** Any instrument's price or price distance. */
  price: 1e9,
  lots: 1e6,
  rr: 1000,
  atrMultiplier: 100,
  /** Money figures the client shows (informative). */
  money: 1e15,
} as const;

const price = z.number().finite().positive().max(TRADE_BOUNDS.price);
const optPrice = price.nullable().optional();

export const tradeDirection = z.enum(['BUY', 'SELL']);
export const orderType = z.enum(['MARKET', 'LIMIT']);
export const targetType = z.enum(['RR', 'ATR', 'PRICE']);

/** One target of a multi-TP trade request (spec: rank, share 0-1, tp_type, rr, atr_multiplier, price). */
export const tradeTarget = z.object({
  rank: z.number().int().min(1).max(20),
  share: z.number().gt(0).max(1),
  tp_type: targetType,
  rr: z.number().finite().positive().max(TRADE_BOUNDS.rr).nullable().optional(),
  atr_multiplier: z.number().finite().positive().max(TRADE_BOUNDS.atrMultiplier).nullable().optional(),
  price: optPrice,
});
export type TradeTarget = z.infer<typeof tradeTarget>;

const optMoney = z.number().finite().min(-TRADE_BOUNDS.money).max(TRADE_BOUNDS.money).nullable().optional();

/** POST /api/trades/execute/ body. Optional `Idempotency-Key` header: a retry returns the first answer. */
export const tradeExecuteRequest = z.object({
  account_id: text().min(1).max(64),
  symbol: text().min(1).max(40),
  lot_size: z.number().finite().positive().max(TRADE_BOUNDS.lots),
  direction: tradeDirection,
  order_type: orderType.default('MARKET'),
  /** Required for LIMIT orders. */
  limit_price: optPrice,
  risk_percent: z.number().finite().gt(0).max(100),
  /** Price units from the entry (fill or limit price) to the stop. */
  stop_loss_distance: price,
  /** Absolute take-profit price; takes precedence over take_profit_distance and rr_ratio. */
  take_profit: optPrice,
  /** Price units from the entry to the take profit; used when take_profit is absent. */
  take_profit_distance: optPrice,
  /** Used for the take profit (rr_ratio × stop distance) when neither take_profit nor its distance is given. */
  rr_ratio: z.number().finite().positive().max(TRADE_BOUNDS.rr).nullable().optional(),
  projected_profit: optMoney,
  projected_loss: optMoney,
  atr_multiplier: z.number().finite().positive().max(TRADE_BOUNDS.atrMultiplier).nullable().optional(),
  reason: text().max(2000).nullable().optional(),
  trader: text().max(100).nullable().optional(),
  /** The modal's timeframe (1M, 5M, 15M, 1H, 4H, 1D); also the ATR timeframe of ATR targets (default 15M). */
  timeframe: text().max(10).nullable().optional(),
  /** true for a multi-TP trade: the targets are closed by the server as partial closes. */
  partial_profit: z.boolean().nullable().optional(),
  targets: z.array(tradeTarget).max(10).nullable().optional(),
  /**
   * With targets: their shares may sum to less than 1; the rest of the position stays open without
   * a take profit (to its stop, a later take profit or a close). Bot strategies' targets send it.
   */
  keep_rest_open: z.boolean().nullable().optional(),
  /**
   * The trader confirmed that the symbol's minimum volume risks more than risk_percent asks; without
   * it such an order is refused (422 naming both amounts).
   */
  allow_min_volume: z.boolean().nullable().optional(),
});
export type TradeExecuteRequest = z.input<typeof tradeExecuteRequest>;

export const tradeExecuteResponse = z.object({
  trade_id: z.string(),
  status: z.enum(['pending', 'open', 'closed', 'cancelled']),
  message: z.string(),
});
export type TradeExecuteResponse = z.infer<typeof tradeExecuteResponse>;

/** Spec's open position; lot_size is what is still open, current_pl is live money in the account currency. */
export const openPosition = z.object({
  id: z.string(),
  position_id: z.string().nullable(),
  instrument: z.string(),
  direction: tradeDirection,
  lot_size: z.number(),
  entry_price: z.number().nullable(),
  stop_loss: z.number().nullable(),
  profit_target: z.number().nullable(),
  rr_ratio: z.number().nullable(),
  current_pl: z.number().nullable(),
  created_at: z.string(),
});
export type OpenPosition = z.infer<typeof openPosition>;

export const openPositionsResponse = z.object({ open_positions: z.array(openPosition) });
export type OpenPositionsResponse = z.infer<typeof openPositionsResponse>;

/** Fields are loose so that the service answers with the spec's own messages. */
export const partialCloseRequest = z.object({ volume_to_close: z.unknown().optional() });
export type PartialCloseRequest = z.infer<typeof partialCloseRequest>;

export const slUpdateType = z.enum(['specific_price', 'breakeven', 'distance_pips', 'distance_price']);

/**
 * POST /api/trades/update-sl/. specific_price: the new stop (`specific_price`, or `value`);
 * breakeven: the entry price; distance_pips / distance_price: `value` pips / price units away from
 * the CURRENT close price (bid for a BUY, ask for a SELL), on the losing side.
 */
export const updateSlRequest = z.object({
  trade_id: text().min(1).max(64),
  sl_update_type: slUpdateType,
  value: z.unknown().optional(),
  specific_price: z.unknown().optional(),
});
export type UpdateSlRequest = z.infer<typeof updateSlRequest>;

export const updateTpRequest = z.object({ take_profit: z.unknown().optional() });
export type UpdateTpRequest = z.infer<typeof updateTpRequest>;

/** Answer of close, partial close and SL/TP updates. */
export const tradeActionResponse = z.object({
  message: z.string(),
  trade_id: z.string(),
  status: z.enum(['pending', 'open', 'closed', 'cancelled']),
  lot_size: z.number(),
  stop_loss: z.number().nullable(),
  take_profit: z.number().nullable(),
  /** Realised P/L of this action (closes), in the account currency. */
  profit: z.number().nullable(),
});
export type TradeActionResponse = z.infer<typeof tradeActionResponse>;

/** GET /api/get_indicator/{symbol}/{timeframe}/ATR[?account_id=]: null when it cannot be computed. */
export const indicatorResponse = z.object({ value: z.number().nullable() });
export type IndicatorResponse = z.infer<typeof indicatorResponse>;
