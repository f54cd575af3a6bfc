import { endianness } from 'node:os';
import { isoMs, TextCodes, tradeFlags } from '@tradedesk/domain';
import type { FactTrade } from './reports.model';

/**
 * One month of an account's closed trades as two blobs (report_facts, migration 0096), in closing
 * order. `data` holds what every report reads, as typed-array columns, each in the narrowest form
 * that holds every value of the month exactly:
 *
 *   0  u8     format (1), 3 bytes reserved
 *   4  u32    trades n
 *   8  u32    bytes of the texts (JSON array; code k names texts[k - 1], code 0 none)
 *   12 u32    bytes of the closing instants that are not plain (`plainInstant`; JSON [[i, text]])
 *   16 u8[9]  form of each column (see `Form`): closed, opened, P/L, risk, then the codes of the
 *             symbol, trader, strategy tag, emotional state and market condition; 7 bytes reserved
 *   32 f64    the first closing time (epoch ms), which closing differences count from
 *   40        the nine columns, then flags u8 (TRADE_*), then the two JSON texts; each column
 *             starts at a multiple of 8 bytes.
 *
 * A month's closings ascend, so they are u32 differences from the one before (27 days fit); an
 * opening is u32 milliseconds before its closing (49 days); money is int32 when it fits; codes are
 * u8 for up to 256 texts. A month that does not fit a narrow form keeps float64 (or wider codes).
 *
 * `trade_data` holds what only MFE/MAE reads: entry prices and stop distances (f64, NaN when none),
 * then the trade ids and the opening instants that are not plain (JSON):
 *
 *   0  u8   format (1), 3 bytes reserved
 *   4  u32  trades n
 *   8  u32  bytes of the ids, 12 u32 bytes of the opening instants, 16 entry f64, stop distance f64
 *
 * Times are kept as epoch ms and the stored text only where it is not plain, so that a figure
 * quoting an instant (the equity curve's time, an MFE row's closing) gives the stored text back
 * exactly. Little-endian, like the candle codec.
 */
if (endianness() !== 'LE') throw new Error('The report facts codec needs a little-endian platform.');

const FORMAT = 1;
const HEADER = 40;
const TRADE_DATA_HEADER = 16;
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
const UINT32_MAX = 4_294_967_295;
const pad8 = (n: number) => (n + 7) & ~7;
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** How a column is stored. */
const enum Form {
  F64 = 0,
  /** int32; INT32_MIN stands for NaN (unknown). */
  I32 = 1,
  /** u32 differences from the value before (the first from the header's base). */
  U32_ASCENDING = 2,
  /** u32 milliseconds before the trade's closing. */
  U32_BEFORE_CLOSING = 3,
  U8 = 4,
  U16 = 5,
  U32 = 6,
}

const BYTES: Record<Form, number> = { 0: 8, 1: 4, 2: 4, 3: 4, 4: 1, 5: 2, 6: 4 };
/** The typed array each form is written and read through. */
const ARRAY_OF = {
  0: Float64Array,
  1: Int32Array,
  2: Uint32Array,
  3: Uint32Array,
  4: Uint8Array,
  5: Uint16Array,
  6: Uint32Array,
} as const satisfies Record<Form, unknown>;

type Codes = Uint8Array | Uint16Array | Uint32Array;

/** The month's trades as the columns the reports read (one chunk of them). */
export interface FactColumns {
  n: number;
  closedMs: Float64Array;
  openedMs: Float64Array;
  pnl: Float64Array;
  risk: Float64Array;
  /** Codes into `texts` (0 none). */
  symbol: Codes;
  trader: Codes;
  strategyTag: Codes;
  emotionalState: Codes;
  marketCondition: Codes;
  flags: Uint8Array;
  texts: (string | null)[];
  /** Closing instants stored in another form than `toISOString`, by index. */
  closedText: Map<number, string>;
}

export interface FactTradeData {
  entry: Float64Array;
  stopDistance: Float64Array;
  ids: string[];
  /** Opening instants stored in another form than `toISOString`, by index. */
  openedText: Map<number, string>;
}

/**
 * Whether an instant's text is `toISOString` of its time in the 24-character form (years 0-9999),
 * where comparing the texts and comparing the times agree.
 */
export function plainInstant(text: string, ms: number): boolean {
  return text.length === 24 && Number.isFinite(ms) && new Date(ms).toISOString() === text;
}

/** Stored texts of instants that are not plain, as [index, text] pairs. */
function oddInstants(values: readonly string[], ms: Float64Array): [number, string][] {
  const odd: [number, string][] = [];
  values.forEach((s, i) => {
    if (!plainInstant(s, ms[i]!)) odd.push([i, s]);
  });
  return odd;
}

const isUint32 = (v: number) => Number.isInteger(v) && v >= 0 && v <= UINT32_MAX;

/** The narrowest form holding every value of a money column (NaN only where `allowNaN`). */
const moneyForm = (col: Float64Array, allowNaN: boolean): Form =>
  col.every((v) => (allowNaN && Number.isNaN(v)) || (Number.isInteger(v) && v > INT32_MIN && v <= INT32_MAX))
    ? Form.I32
    : Form.F64;

function closingForm(closed: Float64Array): Form {
  for (let i = 0; i < closed.length; i++)
    if (!isUint32(i === 0 ? 0 : closed[i]! - closed[i - 1]!) || !Number.isInteger(closed[i]!))
      return Form.F64;
  return Form.U32_ASCENDING;
}

function openingForm(opened: Float64Array, closed: Float64Array): Form {
  for (let i = 0; i < opened.length; i++) if (!isUint32(closed[i]! - opened[i]!)) return Form.F64;
  return Form.U32_BEFORE_CLOSING;
}

/** Encodes the month's trades (in closing order). */
export function encodeFacts(trades: readonly FactTrade[]): { data: Uint8Array; tradeData: Uint8Array } {
  const n = trades.length;
  const codes = new TextCodes();
  const closedMs = new Float64Array(n);
  const openedMs = new Float64Array(n);
  const pnl = new Float64Array(n);
  const risk = new Float64Array(n);
  const cols = [0, 1, 2, 3, 4].map(() => new Float64Array(n));
  const flags = new Uint8Array(n);
  const entry = new Float64Array(n);
  const stop = new Float64Array(n);
  trades.forEach((t, i) => {
    closedMs[i] = isoMs(t.closed_at);
    openedMs[i] = isoMs(t.opened_at);
    pnl[i] = t.pnl_minor;
    risk[i] = t.initial_risk_minor ?? NaN;
    cols[0]![i] = codes.code(t.symbol);
    cols[1]![i] = codes.code(t.trader);
    cols[2]![i] = codes.code(t.strategy_tag);
    cols[3]![i] = codes.code(t.emotional_state);
    cols[4]![i] = codes.code(t.market_condition);
    flags[i] = tradeFlags(t);
    entry[i] = t.entry_price ?? NaN;
    stop[i] = t.stop_distance ?? NaN;
  });
  const codeForm =
    codes.texts.length <= 0x100 ? Form.U8 : codes.texts.length <= 0x10000 ? Form.U16 : Form.U32;
  const closedForm = closingForm(closedMs);
  const columns: [Float64Array, Form][] = [
    [closedMs, closedForm],
    [openedMs, openingForm(openedMs, closedMs)],
    [pnl, moneyForm(pnl, false)],
    [risk, moneyForm(risk, true)],
    ...cols.map((c): [Float64Array, Form] => [c, codeForm]),
  ];
  const texts = utf8.encode(JSON.stringify(codes.texts.slice(1)));
  const odd = utf8.encode(
    JSON.stringify(
      oddInstants(
        trades.map((t) => t.closed_at),
        closedMs,
      ),
    ),
  );
  let size = HEADER + pad8(n) + texts.length + odd.length;
  for (const [, form] of columns) size += pad8(BYTES[form] * n);
  const data = new Uint8Array(size);
  const view = new DataView(data.buffer);
  data[0] = FORMAT;
  view.setUint32(4, n, true);
  view.setUint32(8, texts.length, true);
  view.setUint32(12, odd.length, true);
  columns.forEach(([, form], k) => (data[16 + k] = form));
  view.setFloat64(32, n > 0 ? closedMs[0]! : 0, true);
  let at = HEADER;
  for (const [col, form] of columns) {
    const stored =
      form === Form.U32_ASCENDING
        ? col.map((v, i) => (i === 0 ? 0 : v - col[i - 1]!))
        : form === Form.U32_BEFORE_CLOSING
          ? col.map((v, i) => closedMs[i]! - v)
          : form === Form.I32
            ? col.map((v) => (Number.isNaN(v) ? INT32_MIN : v))
            : col;
    new ARRAY_OF[form](data.buffer, at, n).set(stored);
    at += pad8(BYTES[form] * n);
  }
  data.set(flags, at);
  at += pad8(n);
  data.set(texts, at);
  data.set(odd, at + texts.length);

  const ids = utf8.encode(JSON.stringify(trades.map((t) => t.id)));
  const oddOpened = utf8.encode(
    JSON.stringify(
      oddInstants(
        trades.map((t) => t.opened_at),
        openedMs,
      ),
    ),
  );
  const tradeData = new Uint8Array(TRADE_DATA_HEADER + 2 * pad8(8 * n) + ids.length + oddOpened.length);
  const tv = new DataView(tradeData.buffer);
  tradeData[0] = FORMAT;
  tv.setUint32(4, n, true);
  tv.setUint32(8, ids.length, true);
  tv.setUint32(12, oddOpened.length, true);
  const base = TRADE_DATA_HEADER;
  new Float64Array(tradeData.buffer, base, n).set(entry);
  new Float64Array(tradeData.buffer, base + pad8(8 * n), n).set(stop);
  tradeData.set(ids, base + 2 * pad8(8 * n));
  tradeData.set(oddOpened, base + 2 * pad8(8 * n) + ids.length);
  return { data, tradeData };
}

/**
 * A blob whose typed-array columns can be viewed in place: 8-byte aligned, copied into a fresh
 * buffer when not (pg hands out Buffers at any offset, and Buffer's slice does not copy).
 */
export function aligned(blob: Uint8Array): Uint8Array {
  if (blob.byteOffset % 8 === 0) return blob;
  const copy = new Uint8Array(blob.length);
  copy.set(blob);
  return copy;
}

function checkFormat(blob: Uint8Array, header: number, what: string) {
  if (blob.length < header || blob[0] !== FORMAT)
    throw new Error(`Unreadable report ${what} (format ${blob[0]}).`);
}

/** The columns of a `data` blob; codes and flags are views on it. */
export function decodeFacts(blob: Uint8Array): FactColumns {
  checkFormat(blob, HEADER, 'facts');
  const b = aligned(blob);
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const n = view.getUint32(4, true);
  const textBytes = view.getUint32(8, true);
  const oddBytes = view.getUint32(12, true);
  const forms = Array.from({ length: 9 }, (_, k) => b[16 + k]! as Form);
  let at = b.byteOffset + HEADER;
  const raw = (form: Form) => {
    const col = new ARRAY_OF[form](b.buffer as ArrayBuffer, at, n);
    at += pad8(BYTES[form] * n);
    return col;
  };
  const closedRaw = raw(forms[0]!);
  let closedMs: Float64Array;
  if (forms[0] === Form.U32_ASCENDING) {
    closedMs = new Float64Array(n);
    let t = view.getFloat64(32, true);
    for (let i = 0; i < n; i++) closedMs[i] = t += closedRaw[i]!;
  } else closedMs = closedRaw as Float64Array;
  const openedRaw = raw(forms[1]!);
  let openedMs: Float64Array;
  if (forms[1] === Form.U32_BEFORE_CLOSING) {
    openedMs = new Float64Array(n);
    for (let i = 0; i < n; i++) openedMs[i] = closedMs[i]! - openedRaw[i]!;
  } else openedMs = openedRaw as Float64Array;
  const money = (form: Form) => {
    const col = raw(form);
    if (form === Form.F64) return col as Float64Array;
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = col[i] === INT32_MIN ? NaN : col[i]!;
    return out;
  };
  const pnl = money(forms[2]!);
  const risk = money(forms[3]!);
  const [symbol, trader, strategyTag, emotionalState, marketCondition] = forms
    .slice(4)
    .map((form) => raw(form) as Uint8Array | Uint16Array | Uint32Array);
  const flags = new Uint8Array(b.buffer, at, n);
  at += pad8(n);
  const text = (from: number, bytes: number) =>
    JSON.parse(fromUtf8.decode(new Uint8Array(b.buffer, from, bytes))) as unknown;
  const texts = [null, ...(text(at, textBytes) as string[])];
  const closedText = new Map(text(at + textBytes, oddBytes) as [number, string][]);
  return {
    n,
    closedMs,
    openedMs,
    pnl,
    risk,
    symbol: symbol!,
    trader: trader!,
    strategyTag: strategyTag!,
    emotionalState: emotionalState!,
    marketCondition: marketCondition!,
    flags,
    texts,
    closedText,
  };
}

/** The entry prices, stop distances, ids and odd opening instants of a `trade_data` blob. */
export function decodeTradeData(blob: Uint8Array): FactTradeData {
  checkFormat(blob, TRADE_DATA_HEADER, 'trade data');
  const b = aligned(blob);
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const n = view.getUint32(4, true);
  const idBytes = view.getUint32(8, true);
  const oddBytes = view.getUint32(12, true);
  const base = b.byteOffset + TRADE_DATA_HEADER;
  const text = (from: number, bytes: number) =>
    JSON.parse(fromUtf8.decode(new Uint8Array(b.buffer, from, bytes))) as unknown;
  const after = base + 2 * pad8(8 * n);
  return {
    entry: new Float64Array(b.buffer, base, n),
    stopDistance: new Float64Array(b.buffer, base + pad8(8 * n), n),
    ids: text(after, idBytes) as string[],
    openedText: new Map(text(after + idBytes, oddBytes) as [number, string][]),
  };
}
