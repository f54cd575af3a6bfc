/**
 * A run of candles in columns: one typed array per field, all of the same length, oldest first.
 * `time` is each bar's open instant in epoch milliseconds (UTC); prices are bid; volume is tick volume
 * unless the source says otherwise. Columns let resampling, indicators, analyses, backtests and charts
 * run over a year of M1 (about 370,000 bars) without one object per bar. The candle store, the
 * indicator library, the analyses, the backtest engine and the chart renderer all speak this shape.
 */
export interface CandleSeries {
  readonly time: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
}

/** A series of `length` bars, every column zero-filled, to be written in place. */
export function allocateSeries(length: number): CandleSeries {
  return {
    time: new Float64Array(length),
    open: new Float64Array(length),
    high: new Float64Array(length),
    low: new Float64Array(length),
    close: new Float64Array(length),
    volume: new Float64Array(length),
  };
}
