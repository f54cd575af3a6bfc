/**
 * Every kernel loops in chunks of CHUNK bars and carries its running numbers from one chunk to the
 * next (./chunks.ts). These series span several chunks, with NaN gaps, flat stretches and bars
 * without volume across the boundaries, and each kernel is checked against values that do not
 * depend on where the boundaries fall.
 */
import { describe, expect, it } from 'vitest';
import { allocateSeries, type CandleSeries } from '../candles/series';
import { trueRange } from './atr';
import { CHUNK } from './chunks';
import { atr, cmf, dmi, ema, macd, rma, rsi, rsiWithSmoothing, sma, stochRsi, vwap, wma } from './index';

const N = 3 * CHUNK + 777;
const MINUTE = 60_000;

function random(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

/** A random walk around 1.1 with flat stretches of 40 bars (a flat RSI window) around each chunk boundary. */
function walk(n: number): Float64Array {
  const next = random(7);
  const x = new Float64Array(n);
  let price = 1.1;
  for (let i = 0; i < n; i++) {
    const flat = Math.abs((i % CHUNK) - CHUNK / 2) < 20 || (i > CHUNK && i % CHUNK < 25);
    if (!flat) price += (next() - 0.5) * 0.0004;
    x[i] = price;
  }
  return x;
}

/** The walk with NaN gaps of 1 to 30 values, one across each chunk boundary and others at random. */
function withGaps(x: Float64Array): Float64Array {
  const next = random(11);
  const y = x.slice();
  const gap = (at: number, length: number) => y.fill(NaN, at, Math.min(y.length, at + length));
  for (let b = CHUNK; b < y.length; b += CHUNK) gap(b - 3, 7);
  for (let i = 0; i < 12; i++) gap(Math.floor(next() * y.length), 1 + Math.floor(next() * 30));
  return y;
}

/** M1 candles on the walk, every 50th bar without volume and bars 300…420 flat and without volume. */
function candles(n: number, start = Date.UTC(2025, 0, 6)): CandleSeries {
  const next = random(13);
  const close = walk(n);
  const s = allocateSeries(n);
  for (let i = 0; i < n; i++) {
    const open = i === 0 ? close[0]! : close[i - 1]!;
    const quiet = i >= 300 && i <= 420;
    s.time[i] = start + i * MINUTE;
    s.open[i] = quiet ? close[i]! : open;
    s.close[i] = close[i]!;
    s.high[i] = quiet ? close[i]! : Math.max(open, close[i]!) + next() * 0.0002;
    s.low[i] = quiet ? close[i]! : Math.min(open, close[i]!) - next() * 0.0002;
    s.volume[i] = quiet || i % 50 === 0 ? 0 : 1 + Math.floor(next() * 100);
  }
  return s;
}

/** `s` with `k` bars of other candles before it, ending a minute before its first bar. */
function after(k: number, s: CandleSeries): CandleSeries {
  const earlier = candles(k, s.time[0]! - k * MINUTE);
  const joined = allocateSeries(k + s.time.length);
  for (const key of ['time', 'open', 'high', 'low', 'close', 'volume'] as const) {
    joined[key].set(earlier[key]);
    joined[key].set(s[key], k);
  }
  return joined;
}

const list = (x: Float64Array) => Array.from(x);

describe('kernels over values keep their results wherever the chunk boundaries fall', () => {
  // A NaN restarts these, so k leading NaNs must shift every output by exactly k bars; k not a
  // multiple of CHUNK moves every chunk boundary to another place in the data.
  const kernels: [string, (x: Float64Array) => Float64Array[]][] = [
    ['sma 20', (x) => [sma(x, 20)]],
    ['sma 1500 (a window across chunks)', (x) => [sma(x, 1500)]],
    ['wma 20', (x) => [wma(x, 20)]],
    ['ema 21', (x) => [ema(x, 21)]],
    ['rma 14', (x) => [rma(x, 14)]],
    ['rsi 14', (x) => [rsi(x)]],
    [
      'rsi 14 with its SMA, EMA and WMA lines',
      (x) =>
        (['SMA', 'EMA', 'WMA'] as const).flatMap((maType) => Object.values(rsiWithSmoothing(x, { maType }))),
    ],
    ['stoch RSI 14/14/3/3', (x) => Object.values(stochRsi(x))],
    ['MACD 12/26/9', (x) => Object.values(macd(x))],
  ];
  const x = withGaps(walk(N));
  it.each(kernels)('%s', (_, run) => {
    const plain = run(x);
    for (const k of [1, 1000, CHUNK - 3]) {
      const shifted = new Float64Array(k + N).fill(NaN);
      shifted.set(x, k);
      run(shifted).forEach((line, j) => {
        expect(list(line.subarray(0, k)).every(Number.isNaN)).toBe(true);
        expect(list(line.subarray(k))).toEqual(list(plain[j]!));
      });
    }
  });
});

describe('candle kernels across chunk boundaries', () => {
  const s = candles(N);
  const tr = (series: CandleSeries) =>
    series.close.map((_, i) =>
      i === 0
        ? series.high[0]! - series.low[0]!
        : trueRange(series.high[i]!, series.low[i]!, series.close[i - 1]!),
    );
  const close = (actual: Float64Array, expected: Float64Array, relative: number) => {
    expect(list(actual).map(Number.isNaN)).toEqual(list(expected).map(Number.isNaN));
    expected.forEach((e, i) => {
      if (!Number.isNaN(e))
        expect(Math.abs(actual[i]! - e)).toBeLessThanOrEqual(relative * Math.max(1, Math.abs(e)));
    });
  };

  it('ATR is Wilder’s RMA of the true range at every bar', () => {
    close(atr(s, 14), rma(tr(s), 14), 1e-12);
  });

  it('DMI is built from the RMAs of +DM, −DM and TR at every bar', () => {
    const { high, low } = s;
    const move = (sign: 1 | -1) =>
      high.map((_, i) => {
        if (i === 0) return NaN;
        const up = high[i]! - high[i - 1]!;
        const down = low[i - 1]! - low[i]!;
        const [mine, other] = sign === 1 ? [up, down] : [down, up];
        return mine > other && mine > 0 ? mine : 0;
      });
    const trs = tr(s);
    trs[0] = NaN;
    const [plus, minus, range] = [rma(move(1), 14), rma(move(-1), 14), rma(trs, 14)];
    const plusDi = plus.map((p, i) => (100 * p) / range[i]!);
    const minusDi = minus.map((m, i) => (100 * m) / range[i]!);
    const dx = plusDi.map((p, i) => Math.abs(p - minusDi[i]!) / (p + minusDi[i]! || 1));
    const r = dmi(s, { diPeriod: 14, adxSmoothing: 14 });
    close(r.plusDi, plusDi, 1e-9);
    close(r.minusDi, minusDi, 1e-9);
    close(
      r.adx,
      rma(dx, 14).map((v) => 100 * v),
      1e-9,
    );
  });

  it('CMF keeps its values when earlier bars move the boundaries (it looks at its last 20 bars only)', () => {
    close(cmf(after(1000, s), 20).subarray(1000 + 19), cmf(s, 20).subarray(19), 1e-9);
  });

  it('a weekly VWAP (sessions longer than a chunk) is Σv·x ÷ Σv of its week, its bands ± k·σ', () => {
    const r = vwap(s, { anchor: 'week', bands: [1, 2] });
    const line = new Float64Array(N);
    const sigma = new Float64Array(N);
    let [week, volume, priced, squared] = [NaN, 0, 0, 0];
    for (let i = 0; i < N; i++) {
      const thisWeek = Math.floor((s.time[i]! - Date.UTC(2025, 0, 6)) / (7 * 1440 * MINUTE));
      if (thisWeek !== week) [week, volume, priced, squared] = [thisWeek, 0, 0, 0];
      const x = (s.high[i]! + s.low[i]! + s.close[i]!) / 3;
      volume += s.volume[i]!;
      priced += s.volume[i]! * x;
      squared += s.volume[i]! * x * x;
      line[i] = volume > 0 ? priced / volume : NaN;
      sigma[i] = Math.sqrt(Math.max(0, squared / volume - line[i]! ** 2));
    }
    close(r.vwap, line, 1e-12);
    [1, 2].forEach((k, j) => {
      close(
        r.upper[j]!,
        line.map((m, i) => m + k * sigma[i]!),
        1e-6,
      );
      close(
        r.lower[j]!,
        line.map((m, i) => m - k * sigma[i]!),
        1e-6,
      );
    });
  });
});
