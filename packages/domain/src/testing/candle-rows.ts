import type { CandleSeries } from '../candles/series';

/** A CandleSeries from rows of [time, open, high, low, close, volume], for worked test cases. */
export function seriesOf(
  rows: readonly (readonly [number, number, number, number, number, number])[],
): CandleSeries {
  const column = (k: number) => Float64Array.from(rows, (r) => r[k]!);
  return {
    time: column(0),
    open: column(1),
    high: column(2),
    low: column(3),
    close: column(4),
    volume: column(5),
  };
}

/** Rows of [high, low, close] as a series (time = index, open = close, volume 1). */
export function hlcSeries(rows: readonly (readonly [number, number, number])[]): CandleSeries {
  return seriesOf(rows.map(([h, l, c], i) => [i, c, h, l, c, 1] as const));
}
