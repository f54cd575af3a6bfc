/**
 * The cTrader Open API message contract in its JSON form (Spotware's published
 * OpenApiCommonMessages / OpenApiMessages / OpenApiModelMessages .proto files, proto2).
 * On the JSON port every frame is `{clientMsgId, payloadType, payload}`; field names are the
 * proto field names. Enums go out as their numbers; on the way in numbers or enum names are both
 * accepted, and int64 values may arrive as numbers or decimal strings.
 */

export const PT = {
  // ProtoPayloadType (common)
  ERROR_RES: 50,
  HEARTBEAT_EVENT: 51,
  // ProtoOAPayloadType
  APPLICATION_AUTH_REQ: 2100,
  APPLICATION_AUTH_RES: 2101,
  ACCOUNT_AUTH_REQ: 2102,
  ACCOUNT_AUTH_RES: 2103,
  VERSION_REQ: 2104,
  VERSION_RES: 2105,
  NEW_ORDER_REQ: 2106,
  TRAILING_SL_CHANGED_EVENT: 2107,
  CANCEL_ORDER_REQ: 2108,
  AMEND_ORDER_REQ: 2109,
  AMEND_POSITION_SLTP_REQ: 2110,
  CLOSE_POSITION_REQ: 2111,
  ASSET_LIST_REQ: 2112,
  ASSET_LIST_RES: 2113,
  SYMBOLS_LIST_REQ: 2114,
  SYMBOLS_LIST_RES: 2115,
  SYMBOL_BY_ID_REQ: 2116,
  SYMBOL_BY_ID_RES: 2117,
  TRADER_REQ: 2121,
  TRADER_RES: 2122,
  TRADER_UPDATE_EVENT: 2123,
  RECONCILE_REQ: 2124,
  RECONCILE_RES: 2125,
  EXECUTION_EVENT: 2126,
  SUBSCRIBE_SPOTS_REQ: 2127,
  SUBSCRIBE_SPOTS_RES: 2128,
  UNSUBSCRIBE_SPOTS_REQ: 2129,
  UNSUBSCRIBE_SPOTS_RES: 2130,
  SPOT_EVENT: 2131,
  ORDER_ERROR_EVENT: 2132,
  DEAL_LIST_REQ: 2133,
  DEAL_LIST_RES: 2134,
  GET_TRENDBARS_REQ: 2137,
  GET_TRENDBARS_RES: 2138,
  ERROR_RES_OA: 2142,
  ACCOUNTS_TOKEN_INVALIDATED_EVENT: 2147,
  CLIENT_DISCONNECT_EVENT: 2148,
  GET_ACCOUNTS_BY_ACCESS_TOKEN_REQ: 2149,
  GET_ACCOUNTS_BY_ACCESS_TOKEN_RES: 2150,
  ACCOUNT_DISCONNECT_EVENT: 2164,
  REFRESH_TOKEN_REQ: 2173,
  REFRESH_TOKEN_RES: 2174,
  GET_POSITION_UNREALIZED_PNL_REQ: 2187,
  GET_POSITION_UNREALIZED_PNL_RES: 2188,
} as const;

/** ProtoOATradeSide */
export const TradeSide = { BUY: 1, SELL: 2 } as const;
/** ProtoOAOrderType */
export const OrderType = {
  MARKET: 1,
  LIMIT: 2,
  STOP: 3,
  STOP_LOSS_TAKE_PROFIT: 4,
  MARKET_RANGE: 5,
  STOP_LIMIT: 6,
} as const;
/** ProtoOAOrderStatus */
export const OrderStatus = {
  ORDER_STATUS_ACCEPTED: 1,
  ORDER_STATUS_FILLED: 2,
  ORDER_STATUS_REJECTED: 3,
  ORDER_STATUS_EXPIRED: 4,
  ORDER_STATUS_CANCELLED: 5,
} as const;
/** ProtoOAPositionStatus */
export const PositionStatus = {
  POSITION_STATUS_OPEN: 1,
  POSITION_STATUS_CLOSED: 2,
  POSITION_STATUS_CREATED: 3,
  POSITION_STATUS_ERROR: 4,
} as const;
/** ProtoOAExecutionType */
export const ExecutionType = {
  ORDER_ACCEPTED: 2,
  ORDER_FILLED: 3,
  ORDER_REPLACED: 4,
  ORDER_CANCELLED: 5,
  ORDER_EXPIRED: 6,
  ORDER_REJECTED: 7,
  ORDER_CANCEL_REJECTED: 8,
  SWAP: 9,
  DEPOSIT_WITHDRAW: 10,
  ORDER_PARTIAL_FILL: 11,
  BONUS_DEPOSIT_WITHDRAW: 12,
} as const;
/** ProtoOADealStatus */
export const DealStatus = {
  FILLED: 2,
  PARTIALLY_FILLED: 3,
  REJECTED: 4,
  INTERNALLY_REJECTED: 5,
  ERROR: 6,
  MISSED: 7,
} as const;
/** ProtoOATimeInForce */
export const TimeInForce = {
  GOOD_TILL_DATE: 1,
  GOOD_TILL_CANCEL: 2,
  IMMEDIATE_OR_CANCEL: 3,
  FILL_OR_KILL: 4,
  MARKET_ON_OPEN: 5,
} as const;
/** ProtoOATrendbarPeriod */
export const TrendbarPeriod = {
  M1: 1,
  M2: 2,
  M3: 3,
  M4: 4,
  M5: 5,
  M10: 6,
  M15: 7,
  M30: 8,
  H1: 9,
  H4: 10,
  H12: 11,
  D1: 12,
  W1: 13,
  MN1: 14,
} as const;
/** ProtoOAAccountType */
export const AccountType = { HEDGED: 0, NETTED: 1, SPREAD_BETTING: 2 } as const;

/** Prices in spot events, trendbars and relative SL/TP are integers in 1/100000 of a price unit. */
export const PRICE_SCALE = 100_000;

const ENUMS: Record<string, Record<string, number>> = {
  tradeSide: TradeSide,
  orderType: OrderType,
  orderStatus: OrderStatus,
  positionStatus: PositionStatus,
  executionType: ExecutionType,
  dealStatus: DealStatus,
  timeInForce: TimeInForce,
  period: TrendbarPeriod,
  accountType: AccountType,
};

/** An enum field given as number or name, as the JSON port may send either. */
export function enumValue(field: keyof typeof ENUMS | string, v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    if (/^\d+$/.test(v)) return Number(v);
    return ENUMS[field]?.[v];
  }
  return undefined;
}

/** An int64/double field given as number or decimal string. */
export function num(v: unknown): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : undefined;
}

export interface OpenApiFrame {
  clientMsgId?: string;
  payloadType: number;
  payload?: Record<string, unknown>;
}

export interface ProtoTradeData {
  symbolId: number;
  volume: number;
  tradeSide: number;
  openTimestamp?: number;
  label?: string;
  comment?: string;
  closeTimestamp?: number;
}

export interface ProtoPosition {
  positionId: number;
  tradeData: ProtoTradeData;
  positionStatus: number;
  swap: number;
  price?: number;
  stopLoss?: number;
  takeProfit?: number;
  utcLastUpdateTimestamp?: number;
  commission?: number;
  usedMargin?: number;
  moneyDigits?: number;
}

export interface ProtoOrder {
  orderId: number;
  tradeData: ProtoTradeData;
  orderType: number;
  orderStatus: number;
  executionPrice?: number;
  executedVolume?: number;
  utcLastUpdateTimestamp?: number;
  closingOrder?: boolean;
  limitPrice?: number;
  stopLoss?: number;
  takeProfit?: number;
  clientOrderId?: string;
  positionId?: number;
  relativeStopLoss?: number;
  relativeTakeProfit?: number;
  isStopOut?: boolean;
}

export interface ProtoClosePositionDetail {
  entryPrice: number;
  grossProfit: number;
  swap: number;
  commission: number;
  balance: number;
  closedVolume?: number;
  moneyDigits?: number;
}

export interface ProtoDeal {
  dealId: number;
  orderId: number;
  positionId: number;
  volume: number;
  filledVolume: number;
  symbolId: number;
  createTimestamp: number;
  executionTimestamp: number;
  executionPrice?: number;
  tradeSide: number;
  dealStatus: number;
  commission?: number;
  closePositionDetail?: ProtoClosePositionDetail;
  moneyDigits?: number;
}

export interface ProtoTrendbar {
  volume: number;
  period?: number;
  low?: number;
  deltaOpen?: number;
  deltaClose?: number;
  deltaHigh?: number;
  utcTimestampInMinutes?: number;
}

export interface ProtoLightSymbol {
  symbolId: number;
  symbolName?: string;
  enabled?: boolean;
  baseAssetId?: number;
  quoteAssetId?: number;
  description?: string;
}

export interface ProtoSymbol {
  symbolId: number;
  digits: number;
  pipPosition: number;
  maxVolume?: number;
  minVolume?: number;
  stepVolume?: number;
  lotSize?: number;
}

export interface ProtoAsset {
  assetId: number;
  name: string;
  displayName?: string;
  digits?: number;
}

export interface ProtoTrader {
  ctidTraderAccountId: number;
  balance: number;
  depositAssetId: number;
  leverageInCents?: number;
  accountType?: number;
  brokerName?: string;
  traderLogin?: number;
  moneyDigits?: number;
}

export interface ProtoCtidTraderAccount {
  ctidTraderAccountId: number;
  isLive?: boolean;
  traderLogin?: number;
  brokerTitleShort?: string;
}

/** Default Open API hosts on the JSON port. */
export const OPEN_API_HOSTS = {
  demo: 'wss://demo.ctraderapi.com:5036',
  live: 'wss://live.ctraderapi.com:5036',
} as const;
