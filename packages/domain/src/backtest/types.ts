/** Shapes shared by the backtest engine, the strategy runtime and the statistics. */

/** Bid bars (as brokers' candles are), columnar; `spread` in price units per bar when the data has it. */
export interface BacktestBars {
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  spread?: Float64Array | null;
  /**
   * The exact bid `slippageMs` after each bar's open, when the data source can price any instant (the
   * SIM market); NaN or absent: the engine interpolates it between the bar's open and close.
   */
  latencyBid?: Float64Array | null;
}

export interface BacktestSymbol {
  /** Units per lot (100,000 for FX majors). */
  contractSize: number;
  /** Price digits, for rounding fills. */
  digits: number;
  volumeMin: number;
  volumeStep: number;
  volumeMax: number;
  /** Value in the account currency of one unit of the quote currency (1 when they are the same). */
  quoteToAccountRate: number;
}

export interface BacktestSettings {
  initialBalance: number;
  accountCurrency: string;
  /** Risk per trade, percent of equity (0.5 = 0.5 %). */
  riskPercent: number;
  maxOpenPositions: number;
  /** Spread in price units, used for bars that carry none. */
  spread: number;
  /** Commission per lot per side, in the account currency. */
  commissionPerLot: number;
  /** Latency between the signal (bar close) and the fill, in ms. */
  slippageMs: number;
  /** Adverse slippage on every stop-loss fill, in R (multiples of the initial stop distance). */
  slippageR: number;
  /** Bar length in ms (for the latency interpolation of bars without `latencyBid`). */
  barMs: number;
  leverage: number;
}

/** One order from a strategy, packed as 8 numbers (NaN = not given). */
export const ORDER_FIELDS = 8;
/** Field 0: what the order does. */
export const ORDER_SIDE = { close: 0, buy: 1, sell: -1, setStop: 2, setTarget: 3 } as const;
/** Field 1: how an entry fills. Fields 2..7: price, sl, tp, tp_r, sl_distance, risk %. */
export const ORDER_KIND = { market: 0, limit: 1, stop: 2 } as const;

/**
 * Targets of the orders (ctx.buy(targets=...), signals()'s "targets"), a side list beside the packed
 * orders: for each order its number of targets c (0 for none), then c × TARGET_FIELDS numbers:
 * kind (TARGET_KIND), value (an R multiple or a price) and share of the initial volume.
 */
export const TARGET_FIELDS = 3;
export const TARGET_KIND = { r: 0, price: 1 } as const;
/** At most this many targets an order (the trades service's limit for a multi-TP request). */
export const MAX_ORDER_TARGETS = 10;

export type ExitReason = 'sl' | 'tp' | 'signal' | 'end';

/** One closing fill of a trade that closed in parts (targets, then the rest). */
export interface BacktestTradePart {
  exitIndex: number;
  exitTime: number;
  exitPrice: number;
  volume: number;
  /** Net P/L of this part (its exit commission and its share of the entry commission). */
  pnl: number;
  commission: number;
  /** pnl over the whole trade's initial risk: the parts' R add up to the trade's. */
  r: number;
  exitReason: ExitReason;
}

/**
 * One entry and everything that closed it. A trade closed in parts (targets) is still one trade:
 * volume is the initial volume, pnl / commission / r the totals, exit* the last part's, and `parts`
 * lists each closing fill; single-exit trades have no `parts`.
 */
export interface BacktestTrade {
  side: 'buy' | 'sell';
  entryIndex: number;
  entryTime: number;
  entryPrice: number;
  exitIndex: number;
  exitTime: number;
  exitPrice: number;
  volume: number;
  /** Initial stop loss and take profit (NaN when none). */
  sl: number;
  tp: number;
  /** Net P/L in the account currency (after commission). */
  pnl: number;
  commission: number;
  /** Net P/L in multiples of the initial risk (money lost at the initial stop). */
  r: number;
  exitReason: ExitReason;
  /** SL or TP lay inside the entry bar: the fill order within that bar is unknown. */
  entryBarExit: boolean;
  parts?: BacktestTradePart[];
}

export interface BacktestWarnings {
  entryBarExits: number;
  marginRejected: number;
  volumeRejected: number;
}

export interface BacktestResult {
  trades: BacktestTrade[];
  /** Equity at each bar's close (marked to market at the bid/ask exit side). */
  equity: Float64Array;
  /** 1 on bars where a position was open at the close. */
  exposed: Uint8Array;
  warnings: BacktestWarnings;
}
