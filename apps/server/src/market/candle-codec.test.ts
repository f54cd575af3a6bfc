import { describe, expect, it } from 'vitest';
import { allocateSeries, seriesColumns, type CandleSeries } from '@tradedesk/domain';
import { chunkLength, decodeChunk, decodeChunkInto, encodeChunk } from './candle-codec';

/** Prices as a broker sends them: the nearest double to a decimal of at most `digits` places. */
const quoted = (x: number, digits: number) => Number(x.toFixed(digits));

function series(prices: number[], volumes?: number[], digits = 5, stepMs = 60_000): CandleSeries {
  const s = allocateSeries(prices.length);
  const pip = 10 ** -(digits - 1);
  prices.forEach((p, i) => {
    s.time[i] = Date.UTC(2026, 0, 5) + i * stepMs + (i > 2 ? 2 * 86_400_000 : 0);
    s.open[i] = p;
    s.high[i] = quoted(p + 2 * pip, digits);
    s.low[i] = quoted(p - pip, digits);
    s.close[i] = quoted(p + pip / 10, digits);
    s.volume[i] = volumes?.[i] ?? 10 + i;
  });
  return s;
}

const cols = seriesColumns;

describe('candle chunk codec', () => {
  it('round-trips 5-digit M1 bars exactly in 12 bytes a bar (minutes, price differences, volume: 16 bits each)', () => {
    const prices = Array.from({ length: 1000 }, (_, i) => quoted(1.08 + 0.0001 * Math.sin(i / 7), 5));
    const s = series(prices);
    const blob = encodeChunk(s);
    expect([blob[0], blob[1], blob[2]]).toEqual([2, 5, 0b0011]);
    expect(cols(decodeChunk(blob))).toEqual(cols(s));
    expect(blob.byteLength).toBeLessThan(24 + 12 * 1000 + 48);
    const float = encodeChunk(s, { prices: 'float64' });
    expect(float[1]).toBe(255);
    expect(cols(decodeChunk(float))).toEqual(cols(s));
  });

  it('widens what does not fit: big price moves (i32), long gaps (u32 ms), big volume (u32)', () => {
    const s = series([60_000.25, 95_000.5, 42_000.75], [10, 70_000, 5], 2, 86_400_000);
    s.time[2] = s.time[1]! + 30 * 86_400_000 + 1;
    const blob = encodeChunk(s);
    expect([blob[1], blob[2]]).toEqual([2, 0b0100]);
    expect(cols(decodeChunk(blob))).toEqual(cols(s));
  });

  it('falls back to float64 for prices without a fixed number of digits, and for fractional volume', () => {
    const s = series([Math.PI, Math.E, 1 / 3], [1.5, 2.25, 3], 17);
    const blob = encodeChunk(s);
    expect([blob[1], (blob[2]! >> 2) & 3]).toEqual([255, 2]);
    expect(cols(decodeChunk(blob))).toEqual(cols(s));
  });

  it('falls back to float64 when scaled prices would overflow', () => {
    const s = series([987_654.4321, 987_660.1234], undefined, 4);
    expect(encodeChunk(s)[1]).toBe(255);
    expect(cols(decodeChunk(encodeChunk(s)))).toEqual(cols(s));
  });

  it('decodes an unaligned buffer (as a driver may hand it) into an offset of a larger series', () => {
    const s = series([150.123, 150.2, 149.999], undefined, 3);
    const blob = encodeChunk(s);
    const pool = new Uint8Array(blob.byteLength + 3);
    pool.set(blob, 3);
    const unaligned = pool.subarray(3);
    expect(chunkLength(unaligned)).toBe(3);
    const out = allocateSeries(5);
    expect(decodeChunkInto(unaligned, out, 2)).toBe(3);
    expect(Array.from(out.close.subarray(2))).toEqual(Array.from(s.close));
    expect(out.time[0]).toBe(0);
  });

  it('still reads format 1 chunks (int32 prices, u32 ms deltas)', () => {
    const buf = new ArrayBuffer(16 + 8 + 4 * 8 + 8);
    const v = new DataView(buf);
    v.setUint8(0, 1);
    v.setUint8(1, 3);
    v.setUint32(4, 2, true);
    v.setFloat64(8, 1_767_571_200_000, true);
    v.setUint32(20, 60_000, true);
    [150_123, 150_200, 150_300, 150_400, 149_900, 150_000, 150_200, 150_100].forEach((x, i) =>
      v.setInt32(24 + 4 * i, x, true),
    );
    v.setUint32(56, 7, true);
    v.setUint32(60, 9, true);
    expect(cols(decodeChunk(new Uint8Array(buf)))).toEqual({
      time: [1_767_571_200_000, 1_767_571_260_000],
      open: [150.123, 150.2],
      high: [150.3, 150.4],
      low: [149.9, 150],
      close: [150.2, 150.1],
      volume: [7, 9],
    });
  });

  it('stores an empty chunk', () => {
    expect(chunkLength(encodeChunk(allocateSeries(0)))).toBe(0);
  });

  it('refuses times that do not rise', () => {
    const s = series([1.1, 1.2]);
    s.time[1] = s.time[0]!;
    expect(() => encodeChunk(s)).toThrow(/rise/);
  });
});
