/**
 * Entry of the strategy sandbox process (bundled to sandbox-worker.mjs, started by host.ts under
 * `node --permission` with read access to Pyodide's files only and an empty environment).
 * Loads Pyodide in a `node:vm` context, then runs one backtest per `run` message over IPC.
 */
import vm from 'node:vm';
import {
  backtestSignals,
  computeIndicator,
  createBacktestEngine,
  IndicatorRequestError,
  StrategyOrderError,
  type BacktestResult,
  type SignalArrays,
  type SignalTargets,
} from '@tradedesk/domain';
import { columnsReadBy, type BarColumn } from './columns';
import { loadPyodideInContext } from './pyodide-context';
import type { InitMessage, LiveRequest, RunRequest, WorkerMessage } from './protocol';
import runtimeSource from './python/runtime.py';
import ordersSource from './python/orders.py';
import liveSource from './python/live.py';

const [pyodideDir, limitsJson] = process.argv.slice(2);
const limits = JSON.parse(limitsJson ?? '{}') as {
  wasmMemoryBytes: number;
  outputBytes: number;
  seed: number;
};
const send = (m: WorkerMessage) => process.send?.(m);

let output = '';
const started = performance.now();
const init = await new Promise<InitMessage>((resolve) =>
  process.once('message', (m: InitMessage) => resolve(m)),
);
const given =
  init?.snapshot && ArrayBuffer.isView(init.snapshot)
    ? new Uint8Array(init.snapshot.buffer, init.snapshot.byteOffset, init.snapshot.byteLength)
    : undefined;
const loaded = await loadPyodideInContext(
  pyodideDir!,
  limits,
  (text) => {
    if (output.length < limits.outputBytes) output += text.slice(0, limits.outputBytes - output.length);
  },
  given,
);
const { pyodide, context, api } = loaded;
if (loaded.snapshot) send({ type: 'snapshot', bytes: loaded.snapshot });
pyodide.runPython(runtimeSource);
pyodide.runPython(ordersSource);
pyodide.runPython(liveSource);
type PyFn = (...args: unknown[]) => unknown;
const fn = (name: string) => pyodide.globals.get(name) as PyFn;
const F64 = vm.runInContext('Float64Array', context) as Float64ArrayConstructor;
const Obj = vm.runInContext('Object', context) as ObjectConstructor;
send({
  type: 'ready',
  startupMs: performance.now() - started,
  isolation: {
    permission: Boolean(process.permission),
    fsWrite: process.permission?.has('fs.write') ?? true,
    childProcess: process.permission?.has('child') ?? true,
    worker: process.permission?.has('worker') ?? true,
    envKeys: Object.keys(process.env).length,
  },
});

class StrategyFailure extends Error {}

/** Values coming back from the context are untrusted: copied into this realm's own arrays. */
function bytesOf(value: unknown): Uint8Array {
  const js = (value as { toJs?: () => unknown })?.toJs ? (value as { toJs: () => unknown }).toJs() : value;
  if (!ArrayBuffer.isView(js))
    throw new StrategyFailure('The strategy returned data the engine cannot read.');
  return new Uint8Array(js.buffer.slice(js.byteOffset, js.byteOffset + js.byteLength));
}
const floatsOf = (value: unknown) => new Float64Array(bytesOf(value).buffer);

/**
 * What take_orders() hands back: the packed orders, or [orders, targets side list] when an order
 * has targets (so that the common case crosses as one bytes object, as before).
 */
function takenOrders(value: unknown): { orders: Float64Array; targets: Float64Array | null } {
  const js = (value as { toJs?: () => unknown })?.toJs ? (value as { toJs: () => unknown }).toJs() : value;
  if (!Array.isArray(js)) return { orders: floatsOf(js), targets: null };
  return { orders: floatsOf(js[0]), targets: floatsOf(js[1]) };
}

function checked(result: unknown): string {
  const s = typeof result === 'string' ? result : '';
  if (s.startsWith('ERR:')) throw new StrategyFailure(s.slice(4));
  return s;
}

function toContext(columns: Record<string, Float64Array>): object {
  const out = new Obj() as Record<string, Float64Array>;
  for (const [k, v] of Object.entries(columns)) {
    const a = new F64(v.length);
    a.set(v);
    out[k] = a;
  }
  return out;
}

/**
 * Writes the bars and the requested series straight into arrays the interpreter owns (one copy, no
 * intermediate array in the context) and hands them to the runtime's Data. Only the runtime's own
 * arrays cross: Python never holds a JavaScript object.
 */
function setColumns(
  bars: RunRequest['bars'],
  ind: Record<string, Float64Array>,
  names: readonly BarColumn[],
): void {
  const specs = Object.keys(ind);
  const newColumn = fn('new_column');
  const n = bars.close.length;
  const columns = [...names.map((k) => bars[k]), ...specs.map((k) => ind[k]!)].map((values) => {
    const column = newColumn(n) as PyColumn;
    const buffer = column.getBuffer('f64');
    try {
      buffer.data.set(values);
    } finally {
      buffer.release();
    }
    return column;
  });
  try {
    fn('set_columns')(JSON.stringify(names), JSON.stringify(specs), ...columns);
  } finally {
    for (const c of columns) c.destroy();
  }
}
type PyColumn = {
  getBuffer(type: 'f64'): { data: Float64Array; release(): void };
  destroy(): void;
};

/**
 * One signals() entry, packed by the runtime's `_dense` as [kind, a, b]: "ref" (a requested series,
 * by name: the engine's own array), "const" (one number for every bar), "sparse" (bar indices and
 * values), "flags" (one byte a bar) or "dense" (one double a bar).
 */
function unpack(
  kind: string,
  a: unknown,
  b: unknown,
  n: number,
  ind: Record<string, Float64Array>,
): Uint8Array | Float64Array {
  if (kind === 'ref') {
    const series = Object.hasOwn(ind, String(a)) ? ind[String(a)] : undefined;
    if (!series) throw new StrategyFailure('The strategy returned data the engine cannot read.');
    return series;
  }
  if (kind === 'const') return new Float64Array(n).fill(Number(a));
  if (kind === 'sparse') {
    const index = floatsOf(a);
    const value = floatsOf(b);
    const out = new Float64Array(n).fill(NaN);
    for (let j = 0; j < index.length && j < value.length; j++) {
      const i = index[j]!;
      if (Number.isInteger(i) && i >= 0 && i < n) out[i] = value[j]!;
    }
    return out;
  }
  if (kind === 'flags') return bytesOf(a);
  if (kind === 'dense') return floatsOf(a);
  throw new StrategyFailure('The strategy returned data the engine cannot read.');
}

let signalsMs = 0;
function runSignals(req: RunRequest, ind: Record<string, Float64Array>): BacktestResult {
  const ts = performance.now();
  const raw = fn('run_signals')();
  signalsMs = performance.now() - ts;
  if (typeof raw === 'string') checked(raw);
  const packed = (raw as { toJs?: () => unknown })?.toJs?.();
  if (!Array.isArray(packed)) throw new StrategyFailure('signals() must return a dict of per-bar lists.');
  const n = req.bars.close.length;
  const s: Record<string, Uint8Array | Float64Array> = {};
  let targets: SignalTargets | null = null;
  for (const entry of packed as unknown[]) {
    const [key, kind, a, b] = entry as [unknown, unknown, unknown, unknown];
    if (key === 'targets' && kind === 'targets') {
      targets = { index: a === null || a === undefined ? null : floatsOf(a), packed: floatsOf(b) };
      continue;
    }
    const values = unpack(String(kind), a, b, n, ind);
    // Flags and prices must have one value a bar (the runtime checks; this guards the engine).
    if (values.length !== n) throw new StrategyFailure('The strategy returned data the engine cannot read.');
    s[String(key)] = values;
  }
  return backtestSignals(req.bars, req.symbol, req.settings, { ...(s as SignalArrays), targets }, (f) =>
    send({ type: 'progress', fraction: f }),
  );
}

function runPerBar(req: RunRequest): BacktestResult {
  checked(fn('start_bars')());
  const engine = createBacktestEngine(req.bars, req.symbol, req.settings);
  const runBars = fn('make_runner')() as (i: number, j: number) => number;
  const take = fn('take_orders');
  const setPosition = fn('set_position');
  const sync = () => {
    const p = engine.position();
    setPosition(
      p?.dir ?? 0,
      p?.entryPrice ?? 0,
      p?.volume ?? 0,
      p?.sl ?? NaN,
      p?.tp ?? NaN,
      p?.entryIndex ?? -1,
      engine.balance(),
    );
  };
  sync();
  const n = req.bars.close.length;
  let reported = 0;
  for (let i = 0; i < n;) {
    engine.bar(i);
    if (engine.changed()) sync();
    // Bars i+1 .. j-1 cannot change the positions, so Python runs through them in one call.
    const j = Math.max(i + 1, engine.quietUntil(i + 1));
    const k = Number(runBars(i, j));
    if (k < 0 || !Number.isInteger(k) || k < i || k > j)
      throw new StrategyFailure(String(fn('last_error')()));
    const last = k < j ? k : j - 1;
    for (let m = i + 1; m <= last; m++) engine.bar(m);
    if (k < j) {
      const taken = takenOrders(take());
      engine.submit(k, taken.orders, taken.targets);
    }
    i = last + 1;
    if (i - reported >= 65536) {
      reported = i;
      send({ type: 'progress', fraction: i / n });
    }
  }
  return engine.finish();
}

function run(req: RunRequest): WorkerMessage {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  output = '';
  signalsMs = 0;
  try {
    const head = checked(fn('load')(req.code, req.paramsJson));
    const colon = head.indexOf(':');
    const style = head.slice(0, colon);
    const specs = (JSON.parse(head.slice(colon + 1)) as unknown[]).map(String);
    const t1 = performance.now();
    const ind: Record<string, Float64Array> = {};
    const computed = new Map<string, Float64Array>();
    for (const spec of specs) ind[spec] = computeIndicator(spec, req.bars, computed);
    const t2 = performance.now();
    setColumns(req.bars, ind, columnsReadBy(req.code));
    const t3 = performance.now();
    const result = style === 'signals' ? runSignals(req, ind) : runPerBar(req);
    const t4 = performance.now();
    const cpu = process.cpuUsage(cpu0);
    const phases = {
      loadMs: t1 - t0,
      indicatorsMs: t2 - t1,
      dataMs: t3 - t2,
      signalsMs,
      strategyAndEngineMs: t4 - t3,
      cpuMs: (cpu.user + cpu.system) / 1000,
    };
    return { type: 'done', result, output, runMs: t4 - t0, phases };
  } catch (e) {
    return failedMessage(e);
  }
}

/** Live mode (bot live runs): the indicators the loaded strategy asked for. */
let liveSpecs: string[] = [];

/** A failure as the host reads it: the strategy's own message, or the runtime's, with the limit hit. */
function failedMessage(e: unknown): WorkerMessage {
  const known =
    e instanceof StrategyFailure || e instanceof StrategyOrderError || e instanceof IndicatorRequestError;
  let message = known
    ? (e as Error).message
    : `The strategy runtime failed: ${String((e as Error)?.message ?? e)}`;
  if (api.memoryRefused()) message = `MEMORY_LIMIT\n${message}`;
  if (api.outputExceeded()) message = `OUTPUT_LIMIT\n${message}`;
  return { type: 'failed', message, output };
}

function live(req: LiveRequest): WorkerMessage {
  output = '';
  try {
    if (req.type === 'live-load') {
      const head = checked(fn('load')(req.code, req.paramsJson));
      const colon = head.indexOf(':');
      liveSpecs = (JSON.parse(head.slice(colon + 1)) as unknown[]).map(String);
      return { type: 'live-loaded', style: head.slice(0, colon), indicators: liveSpecs };
    }
    const t0 = performance.now();
    const ind: Record<string, Float64Array> = {};
    for (const spec of liveSpecs) ind[spec] = computeIndicator(spec, req.bars);
    const { time, open, high, low, close, volume } = req.bars;
    fn('live_set_data')(req.symbol, toContext({ time, open, high, low, close, volume }), toContext(ind));
    const p = req.position;
    checked(
      fn('live_step')(req.symbol, p.side, p.entryPrice, p.volume, p.sl, p.tp, p.entryIndex, req.balance),
    );
    const taken = (fn('live_take')(req.symbol) as { toJs: () => unknown[] }).toJs();
    const tags = (JSON.parse(String(taken[1])) as unknown[]).map((t) => (typeof t === 'string' ? t : null));
    return {
      type: 'live-orders',
      orders: floatsOf(taken[0]),
      tags,
      targets: floatsOf(taken[2]),
      output,
      stepMs: performance.now() - t0,
    };
  } catch (e) {
    return failedMessage(e);
  }
}

process.on('message', (m: RunRequest | LiveRequest) => {
  if (m?.type === 'run') send(run(m));
  else if (m?.type === 'live-load' || m?.type === 'live-step') send(live(m));
});
process.on('disconnect', () => process.exit(0));
