/**
 * Backtest speed over one year of M1 bars (525,600 bars, a seeded random walk around 1.10), side by side:
 * - a vectorised strategy (EMA 12/26 crossover through `signals()`), with the crossings requested from
 *   the server like indicators, and again with them computed in Python by `tradedesk.crossover`,
 * - a per-bar strategy (the same EMA crossover written as `on_bar`),
 * - sandbox start-up: a cold boot of the interpreter, then a start from the boot snapshot.
 * Each run is a real sandbox process (`node --permission`, Pyodide in a vm context); "run" time is from
 * the run request to the result (strategy load, indicators, strategy, engine), start-up excluded; the
 * sandbox's own CPU time for the run is printed too, since wall time on a shared machine mostly measures
 * the other processes.
 * Run: `npx tsx bench/backtest.bench.ts` (about a minute). Targets: vectorised ≥ 1,000,000 bars/s,
 * per-bar ≥ 100,000 bars/s.
 */
import { runInSandbox } from '../apps/server/src/sandbox/host';
import type { SandboxBars } from '../apps/server/src/sandbox/protocol';
import { EURUSD_TEST_SYMBOL, TEST_SETTINGS } from '../apps/server/src/testing/sandbox-bars';

const N = 365 * 1440;
function yearOfMinutes(): SandboxBars {
  const b = {
    time: new Float64Array(N),
    open: new Float64Array(N),
    high: new Float64Array(N),
    low: new Float64Array(N),
    close: new Float64Array(N),
    volume: new Float64Array(N),
  };
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5;
  let p = 1.1;
  for (let i = 0; i < N; i++) {
    b.time[i] = Date.UTC(2025, 0, 1) + i * 60_000;
    b.open[i] = p;
    p += rnd() * 0.0004;
    b.close[i] = p;
    b.high[i] = Math.max(b.open[i]!, p) + Math.abs(rnd()) * 0.0002;
    b.low[i] = Math.min(b.open[i]!, p) - Math.abs(rnd()) * 0.0002;
    b.volume[i] = 100;
  }
  return b;
}

/** The crossings computed by the server (requested like indicators); Python only picks the stops. */
const VECTORISED = `
from itertools import compress
INDICATORS = ["crossover(ema(12),ema(26))", "crossunder(ema(12),ema(26))", "atr(14)"]

def signals(data, params):
    up, down = data.crossover("ema(12)", "ema(26)"), data.crossunder("ema(12)", "ema(26)")
    close, atr = data.close, data.atr(14)
    bars = range(len(close))
    sl = {i: close[i] - 2 * atr[i] for i in compress(bars, up)}
    sl.update({i: close[i] + 2 * atr[i] for i in compress(bars, down)})
    return {"entries": up, "exits": down, "short_entries": down, "short_exits": up, "sl": sl, "tp_r": 2.0}
`;

/** The same strategy with the crossings computed in Python by the tradedesk helper. */
const VECTORISED_PY = `
from itertools import compress
from tradedesk import crossover, crossunder
INDICATORS = ["ema(12)", "ema(26)", "atr(14)"]

def signals(data, params):
    fast, slow, close, atr = data.ema(12), data.ema(26), data.close, data.atr(14)
    up, down = crossover(fast, slow), crossunder(fast, slow)
    bars = range(len(close))
    sl = {i: close[i] - 2 * atr[i] for i in compress(bars, up)}
    sl.update({i: close[i] + 2 * atr[i] for i in compress(bars, down)})
    return {"entries": up, "exits": down, "short_entries": down, "short_exits": up, "sl": sl, "tp_r": 2.0}
`;

const PER_BAR = `
INDICATORS = ["ema(12)", "ema(26)", "atr(14)"]

def init(ctx, params):
    ctx.fast, ctx.slow, ctx.atr = ctx.data.ema(12), ctx.data.ema(26), ctx.data.atr(14)

def on_bar(ctx, bar):
    i = bar.i
    f, s = ctx.fast, ctx.slow
    if i and f[i - 1] <= s[i - 1] and f[i] > s[i]:
        if ctx.position is not None:
            ctx.close()
        ctx.buy(sl_distance=2 * ctx.atr[i], tp_r=2)
    elif i and f[i - 1] >= s[i - 1] and f[i] < s[i]:
        if ctx.position is not None:
            ctx.close()
        ctx.sell(sl_distance=2 * ctx.atr[i], tp_r=2)
`;

const bars = yearOfMinutes();
const settings = { ...TEST_SETTINGS, maxOpenPositions: 1 };
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

async function run(name: string, code: string) {
  const t0 = performance.now();
  const r = await runInSandbox(
    { code, paramsJson: '{}', bars, symbol: EURUSD_TEST_SYMBOL, settings },
    { limits: { wallMs: 600_000, memoryMb: 1500 } },
  );
  const total = performance.now() - t0;
  if (!r.ok) throw new Error(`${name}: ${r.error}`);
  console.log(
    `${name.padEnd(11)} ${fmt(N)} bars in ${r.runMs.toFixed(0)} ms run = ${fmt(N / (r.runMs / 1000))} bars/s wall,` +
      ` ${fmt(N / (r.phases.cpuMs / 1000))} bars/s of CPU time` +
      ` (start-up ${r.startupMs.toFixed(0)} ms, process total ${total.toFixed(0)} ms, ${r.result.trades.length} trades;` +
      ` ${Object.entries(r.phases)
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(', ')})`,
  );
  return r;
}

const cold = await run('cold start', 'def signals(data, params):\n    return {}\n');
const warm = await run('warm start', 'def signals(data, params):\n    return {}\n');
console.log(
  `sandbox start-up: cold boot ${cold.ok ? cold.startupMs.toFixed(0) : '?'} ms, from snapshot ${warm.ok ? warm.startupMs.toFixed(0) : '?'} ms`,
);
await run('vectorised', VECTORISED);
await run('vec. helper', VECTORISED_PY);
if (!process.env.BENCH_ONLY_VEC) await run('per-bar', PER_BAR);
