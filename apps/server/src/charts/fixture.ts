import { allocateSeries, type CandleSeries } from '@tradedesk/domain';

/**
 * A fixed, made-up candle set for the renderer's golden tests and the benchmark: a deterministic wave
 * with a trend, from a known instant, one bar per `stepMs`.
 */
export function waveCandles(length: number, startMs: number, stepMs: number, base = 1.085): CandleSeries {
  const s = allocateSeries(length);
  let prev = base;
  for (let i = 0; i < length; i++) {
    const mid = base + 0.004 * Math.sin(i / 9) + 0.0015 * Math.sin(i / 2.3) + i * 0.00002;
    const open = prev;
    const close = mid;
    const wick = 0.0004 + 0.0003 * Math.abs(Math.sin(i * 1.7));
    s.time[i] = startMs + i * stepMs;
    s.open[i] = open;
    s.close[i] = close;
    s.high[i] = Math.max(open, close) + wick;
    s.low[i] = Math.min(open, close) - wick * 0.8;
    s.volume[i] = 200 + Math.round(150 * Math.abs(Math.sin(i / 4)));
    prev = close;
  }
  return s;
}
