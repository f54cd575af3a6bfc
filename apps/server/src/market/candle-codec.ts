import { endianness } from 'node:os';
import { allocateSeries, type CandleSeries } from '@tradedesk/domain';

/**
 * One chunk of candles (a month of one source, symbol and timeframe) as a blob. Format 2:
 *
 *   0  u8   format version (2)
 *   1  u8   prices: 0-9 = integers scaled by 10^digits, 255 = float64
 *   2  u8   widths: bit 0 time deltas u16 (else u32), bit 1 price deltas i16 (else i32),
 *           bits 2-3 volume u16 (0), u32 (1) or float64 (2)
 *   3  u8   reserved (0)
 *   4  u32  bar count n
 *   8  f64  time of the first bar (epoch ms)
 *   16 u32  time step in ms: the deltas below count steps (60,000 for M1)
 *   20 i32  scaled price the first open is relative to
 *   24      n time deltas (the first is 0), then open, high, low, close, then volume, each column
 *           starting at a multiple of 8 bytes.
 *
 * Scaled prices are stored as differences, which are small: open − previous close, high − open,
 * open − low, close − open. A month of M1 takes 12 bytes a bar (u16 minutes, i16 × 4, u16 volume);
 * any chunk whose values do not fit the narrow types uses the wide ones, and prices are scaled
 * integers only when every price of the chunk survives the round trip exactly (a broker's prices
 * have a fixed number of digits), else float64: never a lossy cast. Format 1 (fixed int32 or
 * float64 columns, no differences) is still read. Little-endian, as every platform Node runs on here.
 */
if (endianness() !== 'LE') throw new Error('The candle codec needs a little-endian platform.');

const VERSION = 2;
const FLOAT = 255;
const HEADER = 24;
const MAX_DIGITS = 9;
const INT32_MAX = 2_147_483_647;
const pad8 = (n: number) => (n + 7) & ~7;

export interface EncodeOptions {
  /** 'auto' (scaled integers when exact) or 'float64' always (for measurements). */
  prices?: 'auto' | 'float64';
}

/** The smallest number of decimals that carries every price exactly in an int32, or null. */
function priceDigits(s: CandleSeries): number | null {
  const cols = [s.open, s.high, s.low, s.close];
  for (let d = 0; d <= MAX_DIGITS; d++) {
    const scale = 10 ** d;
    let ok = true;
    let overflow = false;
    for (const col of cols) {
      for (let i = 0; i < col.length && ok; i++) {
        const scaled = Math.round(col[i]! * scale);
        overflow ||= Math.abs(scaled) > INT32_MAX / 2;
        ok = !overflow && scaled / scale === col[i];
      }
      if (!ok) break;
    }
    if (ok) return d;
    if (overflow) return null; // a larger scale cannot fit either
  }
  return null;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

function volumeWidth(v: Float64Array): 0 | 1 | 2 {
  let max = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i]!;
    if (!(x >= 0 && Math.floor(x) === x)) return 2;
    if (x > max) max = x;
  }
  return max <= 0xffff ? 0 : max <= 0xffffffff ? 1 : 2;
}

/** Scaled-price differences (open − previous close, high − open, open − low, close − open). */
function priceDeltas(s: CandleSeries, scale: number): { cols: Int32Array[]; base: number; narrow: boolean } {
  const n = s.time.length;
  const cols = [new Int32Array(n), new Int32Array(n), new Int32Array(n), new Int32Array(n)] as const;
  const base = n > 0 ? Math.round(s.open[0]! * scale) : 0;
  let prev = base;
  let narrow = true;
  for (let i = 0; i < n; i++) {
    const o = Math.round(s.open[i]! * scale);
    const c = Math.round(s.close[i]! * scale);
    const d = [o - prev, Math.round(s.high[i]! * scale) - o, o - Math.round(s.low[i]! * scale), c - o];
    for (let k = 0; k < 4; k++) {
      cols[k]![i] = d[k]!;
      narrow &&= d[k]! >= -32768 && d[k]! <= 32767;
    }
    prev = c;
  }
  return { cols: [...cols], base, narrow };
}

export function encodeChunk(s: CandleSeries, opts: EncodeOptions = {}): Uint8Array {
  const n = s.time.length;
  let step = 0;
  for (let i = 1; i < n; i++) {
    const d = s.time[i]! - s.time[i - 1]!;
    if (!(d > 0 && d < 2 ** 32 && Number.isInteger(d)))
      throw new Error('Candle times must rise, less than 49 days apart.');
    step = gcd(d, step);
  }
  step ||= 1;
  let narrowTime = true;
  for (let i = 1; i < n && narrowTime; i++) narrowTime = (s.time[i]! - s.time[i - 1]!) / step <= 0xffff;
  if (!narrowTime) step = 1;
  const digits = opts.prices === 'float64' ? null : priceDigits(s);
  const deltas = digits === null ? null : priceDeltas(s, 10 ** digits);
  const priceBytes = deltas === null ? 8 : deltas.narrow ? 2 : 4;
  const vWidth = volumeWidth(s.volume);
  const timeEnd = pad8(HEADER + (narrowTime ? 2 : 4) * n);
  const priceCol = pad8(priceBytes * n);
  const volumeAt = timeEnd + 4 * priceCol;
  const buf = new ArrayBuffer(volumeAt + [2, 4, 8][vWidth]! * n);
  const bytes = new Uint8Array(buf);
  const view = new DataView(buf);
  bytes[0] = VERSION;
  bytes[1] = digits ?? FLOAT;
  bytes[2] = (narrowTime ? 1 : 0) | (deltas?.narrow ? 2 : 0) | (vWidth << 2);
  view.setUint32(4, n, true);
  view.setFloat64(8, n > 0 ? s.time[0]! : 0, true);
  view.setUint32(16, step, true);
  view.setInt32(20, deltas?.base ?? 0, true);
  const times = narrowTime ? new Uint16Array(buf, HEADER, n) : new Uint32Array(buf, HEADER, n);
  for (let i = 1; i < n; i++) times[i] = (s.time[i]! - s.time[i - 1]!) / step;
  for (let c = 0; c < 4; c++) {
    const at = timeEnd + c * priceCol;
    if (deltas === null) new Float64Array(buf, at, n).set([s.open, s.high, s.low, s.close][c]!);
    else if (deltas.narrow) new Int16Array(buf, at, n).set(deltas.cols[c]!);
    else new Int32Array(buf, at, n).set(deltas.cols[c]!);
  }
  const volume = [Uint16Array, Uint32Array, Float64Array][vWidth]!;
  new volume(buf, volumeAt, n).set(s.volume);
  return bytes;
}

/** Number of bars in a chunk, from its header. */
export function chunkLength(blob: Uint8Array): number {
  return new DataView(blob.buffer, blob.byteOffset, blob.byteLength).getUint32(4, true);
}

/** Decodes a chunk into `out` from index `at` (the caller sized `out` from chunkLength). */
export function decodeChunkInto(blob: Uint8Array, out: CandleSeries, at: number): number {
  // Typed-array views need aligned offsets; a driver's Buffer may sit anywhere in its pool (copy it).
  const bytes = blob.byteOffset % 8 === 0 ? blob : new Uint8Array(blob);
  if (bytes[0] === 1) return decodeV1(bytes, out, at);
  if (bytes[0] !== VERSION) throw new Error(`Unknown candle chunk version ${bytes[0]}.`);
  // Drivers hand over Buffers and Uint8Arrays on ordinary (never shared) memory.
  const buf = bytes.buffer as ArrayBuffer;
  const base = bytes.byteOffset;
  const view = new DataView(buf, base, bytes.byteLength);
  const digits = bytes[1]!;
  const flags = bytes[2]!;
  const narrowTime = (flags & 1) === 1;
  const narrowPrices = (flags & 2) === 2;
  const vWidth = (flags >> 2) & 3;
  const n = view.getUint32(4, true);
  const step = view.getUint32(16, true);
  const priceBytes = digits === FLOAT ? 8 : narrowPrices ? 2 : 4;
  const timeEnd = pad8(HEADER + (narrowTime ? 2 : 4) * n);
  const priceCol = pad8(priceBytes * n);
  const volumeAt = timeEnd + 4 * priceCol;

  const deltas = narrowTime ? new Uint16Array(buf, base + HEADER, n) : new Uint32Array(buf, base + HEADER, n);
  let t = view.getFloat64(8, true);
  for (let i = 0; i < n; i++) {
    t += deltas[i]! * step;
    out.time[at + i] = t;
  }
  const col = (c: number) => base + timeEnd + c * priceCol;
  if (digits === FLOAT) {
    [out.open, out.high, out.low, out.close].forEach((dst, c) =>
      dst.set(new Float64Array(buf, col(c), n), at),
    );
  } else {
    const Ints = narrowPrices ? Int16Array : Int32Array;
    const [od, hd, ld, cd] = [0, 1, 2, 3].map((c) => new Ints(buf, col(c), n));
    const scale = 10 ** digits;
    let prev = view.getInt32(20, true);
    for (let i = 0; i < n; i++) {
      const o = prev + od![i]!;
      const c = o + cd![i]!;
      out.open[at + i] = o / scale;
      out.high[at + i] = (o + hd![i]!) / scale;
      out.low[at + i] = (o - ld![i]!) / scale;
      out.close[at + i] = c / scale;
      prev = c;
    }
  }
  const Volume = [Uint16Array, Uint32Array, Float64Array][vWidth]!;
  out.volume.set(new Volume(buf, base + volumeAt, n), at);
  return n;
}

/** Format 1: u32 ms time deltas, then int32 (scaled) or float64 price columns, u32 or float64 volume. */
function decodeV1(bytes: Uint8Array, out: CandleSeries, at: number): number {
  const buf = bytes.buffer as ArrayBuffer;
  const base = bytes.byteOffset;
  const view = new DataView(buf, base, bytes.byteLength);
  const digits = bytes[1]!;
  const n = view.getUint32(4, true);
  const timeEnd = pad8(16 + 4 * n);
  const priceCol = pad8((digits === FLOAT ? 8 : 4) * n);
  const volumeAt = timeEnd + 4 * priceCol;
  const deltas = new Uint32Array(buf, base + 16, n);
  let t = view.getFloat64(8, true);
  for (let i = 0; i < n; i++) out.time[at + i] = t += deltas[i]!;
  [out.open, out.high, out.low, out.close].forEach((dst, c) => {
    const from = base + timeEnd + c * priceCol;
    if (digits === FLOAT) return dst.set(new Float64Array(buf, from, n), at);
    const src = new Int32Array(buf, from, n);
    const scale = 10 ** digits;
    for (let i = 0; i < n; i++) dst[at + i] = src[i]! / scale;
  });
  const Volume = bytes[2] === 0 ? Uint32Array : Float64Array;
  out.volume.set(new Volume(buf, base + volumeAt, n), at);
  return n;
}

export function decodeChunk(blob: Uint8Array): CandleSeries {
  const out = allocateSeries(chunkLength(blob));
  decodeChunkInto(blob, out, 0);
  return out;
}
