/**
 * Reference vectors: 720 hourly bars and every indicator computed once with pandas by
 * packages/domain/fixtures/indicators/make_reference.py (an independent implementation on pandas'
 * rolling/ewm). Warm-up bars must be NaN exactly where the reference has none; every other value
 * must agree to 1e-9 relative. A value that is exactly 0 in one and a rounding residue in the other
 * (a %K of 0 from a running sum, a one-bar session's σ) has no relative error, so the tolerance has a
 * floor of 1e-12 × the column's largest magnitude.
 */
import { describe, expect, it } from 'vitest';
import type { CandleSeries } from '../candles/series';
import {
  atr,
  cmf,
  dmi,
  ema,
  FX_SESSION_OFFSET_MS,
  macd,
  priceSource,
  rsi,
  rsiWithSmoothing,
  sma,
  stochRsi,
  vwap,
  wma,
} from './index';
import reference from '../../fixtures/indicators/reference.json';

interface Reference {
  bars: Record<keyof CandleSeries, number[]>;
  values: Record<string, (number | null)[]>;
}

const ref = reference as Reference;

const column = (xs: number[]) => Float64Array.from(xs);
const series: CandleSeries = {
  time: column(ref.bars.time),
  open: column(ref.bars.open),
  high: column(ref.bars.high),
  low: column(ref.bars.low),
  close: column(ref.bars.close),
  volume: column(ref.bars.volume),
};
const close = series.close;

const RELATIVE = 1e-9;
const FLOOR = 1e-3; // × RELATIVE × the column's largest magnitude

function within(actual: number, expected: number, scale: number): boolean {
  return Math.abs(actual - expected) <= RELATIVE * Math.max(Math.abs(expected), FLOOR * scale);
}

function magnitude(xs: (number | null)[]): number {
  return xs.reduce<number>((m, x) => (x === null ? m : Math.max(m, Math.abs(x))), 0);
}

/** Same NaN positions; every other value within 1e-9 relative. Returns how many values compared. */
function agree(actual: Float64Array, name: string): number {
  const expected = ref.values[name];
  if (!expected) throw new Error(`no reference column ${name}`);
  expect(actual.length).toBe(expected.length);
  const scale = magnitude(expected);
  let compared = 0;
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i];
    const a = actual[i]!;
    if (e === null || e === undefined) {
      if (!Number.isNaN(a)) throw new Error(`${name}[${i}]: expected NaN (warm-up), got ${a}`);
      continue;
    }
    if (!within(a, e, scale))
      throw new Error(`${name}[${i}]: ${a} vs reference ${e} (relative ${Math.abs(a - e) / Math.abs(e)})`);
    compared++;
  }
  return compared;
}

describe('indicators against pandas reference vectors (720 bars)', () => {
  it('has at least 500 bars', () => {
    expect(close.length).toBeGreaterThanOrEqual(500);
  });

  it('SMA, EMA (close and hl2 source), WMA', () => {
    expect(agree(sma(close, 20), 'sma_20')).toBe(701);
    expect(agree(ema(close, 21), 'ema_21')).toBe(700);
    expect(agree(ema(priceSource(series, 'hl2'), 50), 'ema_50_hl2')).toBe(671);
    expect(agree(ema(close, 100), 'ema_100')).toBe(621);
    expect(agree(wma(close, 20), 'wma_20')).toBe(701);
  });

  it('RSI (Wilder) and its SMA/EMA/WMA smoothing lines', () => {
    expect(agree(rsi(close), 'rsi_14')).toBe(706);
    expect(agree(rsi(close, 7), 'rsi_7')).toBe(713);
    for (const maType of ['SMA', 'EMA', 'WMA'] as const) {
      const { rsi: line, ma } = rsiWithSmoothing(close, { period: 14, maType, maPeriod: 14 });
      agree(line, 'rsi_14');
      expect(agree(ma, `rsi_14_${maType.toLowerCase()}_14`)).toBe(693);
    }
  });

  it('Stochastic RSI %K and %D', () => {
    const { k, d } = stochRsi(close);
    expect(agree(k, 'stoch_rsi_k')).toBeGreaterThan(680);
    expect(agree(d, 'stoch_rsi_d')).toBeGreaterThan(680);
  });

  it('DMI: +DI, −DI, ADX with default and separate lengths', () => {
    const a = dmi(series);
    expect(agree(a.plusDi, 'dmi_plus')).toBe(706);
    expect(agree(a.minusDi, 'dmi_minus')).toBe(706);
    expect(agree(a.adx, 'dmi_adx')).toBe(693);
    const b = dmi(series, { diPeriod: 10, adxSmoothing: 20 });
    agree(b.plusDi, 'dmi_10_20_plus');
    agree(b.minusDi, 'dmi_10_20_minus');
    expect(agree(b.adx, 'dmi_10_20_adx')).toBe(720 - 29);
  });

  it('MACD line, signal, histogram', () => {
    const m = macd(close);
    expect(agree(m.macd, 'macd')).toBe(695);
    expect(agree(m.signal, 'macd_signal')).toBe(687);
    expect(agree(m.histogram, 'macd_histogram')).toBe(687);
  });

  it('CMF and ATR', () => {
    expect(agree(cmf(series), 'cmf_20')).toBe(701);
    expect(agree(atr(series), 'atr_14')).toBe(707);
  });

  it.each([
    ['day', 'day', 0],
    ['fx_day', 'day', FX_SESSION_OFFSET_MS],
    ['fx_week', 'week', FX_SESSION_OFFSET_MS],
    ['month', 'month', 0],
  ] as const)('VWAP anchored by %s with 1σ and 2σ bands', (name, anchor, offsetMs) => {
    const v = vwap(series, { anchor, offsetMs, bands: [1, 2] });
    expect(agree(v.vwap, `vwap_${name}`)).toBeGreaterThan(700);
    const sigma = ref.values[`vwap_${name}_sigma`]!;
    const line = ref.values[`vwap_${name}`]!;
    const band = (k: number, sign: number) =>
      sigma.map((s, i) => (s === null ? null : line[i]! + sign * k * s));
    for (const [j, k] of [1, 2].entries()) {
      ref.values[`vwap_${name}_upper_${k}`] = band(k, 1);
      ref.values[`vwap_${name}_lower_${k}`] = band(k, -1);
      agree(v.upper[j]!, `vwap_${name}_upper_${k}`);
      agree(v.lower[j]!, `vwap_${name}_lower_${k}`);
    }
    // σ itself, recovered from the 1σ band: the spread is small against the price, so this is the
    // strict check of the deviation.
    const scale = magnitude(sigma);
    const off = sigma.filter((s, i) => s !== null && !within(v.upper[0]![i]! - v.vwap[i]!, s, scale));
    expect(off).toEqual([]);
  });
});
