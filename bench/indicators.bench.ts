/**
 * Indicator speed: every indicator of the library over one year of M1 (374,400 bars: 52 FX weeks
 * from Sunday 22:00 to Friday 22:00 UTC, a deterministic random walk), target < 100 ms in total.
 * Then the same work through `trading-signals` (the maintained library DESIGN.md prefers), fed bar by
 * bar as its API requires, for the decision in docs/decisions.md.
 * Run: `npx tsx bench/indicators.bench.ts` (about 30 s). Figures are medians of 25 runs (5 for the
 * library) after 3 warm-ups, in wall-clock and in process CPU time (user + system), and the fastest
 * run, since the shared machine's load inflates the others.
 */
import { loadavg } from 'node:os';
import { ADX, ATR, CMF, EMA, MACD, RSI, SMA, StochasticRSI, VWAP, WMA } from 'trading-signals';
import {
  atr,
  cmf,
  dmi,
  ema,
  FX_SESSION_OFFSET_MS,
  macd,
  priceSource,
  rsiWithSmoothing,
  sma,
  stochRsi,
  vwap,
  wma,
  type CandleSeries,
} from '../packages/domain/src/index';
import { cpuMs, median, yearOfM1 } from './bench-data';

const WARM_UPS = 3;
const TARGET_MS = 100;

type Job = [name: string, run: (s: CandleSeries) => unknown];

/** The template's indicators at their defaults, plus SMA, WMA, ATR and a daily FX VWAP with 3 bands. */
const kernels: Job[] = [
  ['EMA 21/50/100 (close)', (s) => [21, 50, 100].map((p) => ema(s.close, p))],
  ['SMA 20', (s) => sma(s.close, 20)],
  ['WMA 20', (s) => wma(s.close, 20)],
  ['RSI 14 + SMA 14 line', (s) => rsiWithSmoothing(s.close)],
  ['Stoch RSI 14/14/3/3', (s) => stochRsi(s.close)],
  ['DMI 14/14', (s) => dmi(s)],
  ['MACD 12/26/9', (s) => macd(s.close)],
  ['CMF 20', (s) => cmf(s)],
  ['ATR 14', (s) => atr(s)],
  ['VWAP day (FX), hlc3, bands 1/2/3', (s) => vwap(s, { offsetMs: FX_SESSION_OFFSET_MS, bands: [1, 2, 3] })],
  ['EMA 21 of ohlc4 (source)', (s) => ema(priceSource(s, 'ohlc4'), 21)],
];

interface Streaming<In, Out> {
  update(input: In, replace: boolean): Out | null;
}

/** Feeds every bar to a trading-signals indicator and keeps each answer in a Float64Array. */
function feed<In, Out>(
  s: CandleSeries,
  indicator: Streaming<In, Out>,
  input: (s: CandleSeries, i: number) => In,
  pick: (r: Out) => number = (r) => r as number,
): Float64Array {
  const out = new Float64Array(s.close.length);
  for (let i = 0; i < out.length; i++) {
    const r = indicator.update(input(s, i), false);
    out[i] = r === null ? NaN : pick(r);
  }
  return out;
}
const close = (s: CandleSeries, i: number) => s.close[i]!;
const hlc = (s: CandleSeries, i: number) => ({ high: s.high[i]!, low: s.low[i]!, close: s.close[i]! });
const hlcv = (s: CandleSeries, i: number) => ({ ...hlc(s, i), volume: s.volume[i]! });

/** The same work through trading-signals 8, where it has the indicator (see the names for what it lacks). */
const library: Job[] = [
  ['EMA 21/50/100 (close)', (s) => [21, 50, 100].map((p) => feed(s, new EMA(p), close))],
  ['SMA 20', (s) => feed(s, new SMA(20), close)],
  ['WMA 20', (s) => feed(s, new WMA(20), close)],
  ['RSI 14 (no smoothing line)', (s) => feed(s, new RSI(14), close)],
  ['Stoch RSI 14 (no %K/%D lengths)', (s) => feed(s, new StochasticRSI(14), close)],
  ['ADX 14 (one length for DI and ADX)', (s) => feed(s, new ADX(14), hlc)],
  ['MACD 12/26/9', (s) => feed(s, new MACD(new EMA(12), new EMA(26), new EMA(9)), close, (r) => r.histogram)],
  ['CMF 20', (s) => feed(s, new CMF(20), hlcv)],
  ['ATR 14', (s) => feed(s, new ATR(14), hlc)],
  ['VWAP (no sessions, no bands)', (s) => feed(s, new VWAP(), hlcv)],
];

interface Figures {
  /** Medians: of the per-run sums, and of each job, in wall-clock ms and in process CPU ms. */
  total: number;
  /** The fastest run's sum (wall), and the sum of each job's fastest run: the cost with a core to itself. */
  best: number;
  bestEach: number;
  each: number[];
  cpuTotal: number;
  cpuEach: number[];
}

function measure(jobs: Job[], s: CandleSeries, runs: number): Figures {
  const totals: number[] = [];
  const cpuTotals: number[] = [];
  const each: number[][] = jobs.map(() => []);
  const cpuEach: number[][] = jobs.map(() => []);
  for (let r = 0; r < runs + WARM_UPS; r++) {
    let total = 0;
    let cpuTotal = 0;
    jobs.forEach(([, run], j) => {
      const c0 = cpuMs();
      const t0 = performance.now();
      run(s);
      const wall = performance.now() - t0;
      const cpu = cpuMs() - c0;
      total += wall;
      cpuTotal += cpu;
      if (r < WARM_UPS) return;
      each[j]!.push(wall);
      cpuEach[j]!.push(cpu);
    });
    if (r < WARM_UPS) continue;
    totals.push(total);
    cpuTotals.push(cpuTotal);
  }
  return {
    best: Math.min(...totals),
    bestEach: each.reduce((sum, xs) => sum + Math.min(...xs), 0),
    total: median(totals),
    each: each.map(median),
    cpuTotal: median(cpuTotals),
    cpuEach: cpuEach.map(median),
  };
}

function report(title: string, jobs: Job[], f: Figures): void {
  const row = (name: string, wall: number | string, cpu: number | string) =>
    console.log(
      `  ${name.padEnd(42)} ${(typeof wall === 'number' ? wall.toFixed(2) : wall).padStart(8)} ${(typeof cpu === 'number' ? cpu.toFixed(2) : cpu).padStart(8)}`,
    );
  console.log(`\n${title}`);
  row('', 'wall ms', 'CPU ms');
  jobs.forEach(([name], j) => row(name, f.each[j]!, f.cpuEach[j]!));
  row('total (median of the per-run sums)', f.total, f.cpuTotal);
  row('total of the fastest run', f.best, '');
  row("sum of each indicator's fastest run", f.bestEach, '');
}

const load = loadavg().map((x) => x.toFixed(1));
console.log(`load average ${load.join(' / ')} (1 / 5 / 15 min) on ${navigator.hardwareConcurrency} cores`);
const series = yearOfM1();
const bars = series.close.length;
const first = new Date(series.time[0]!).toISOString();
const last = new Date(series.time[bars - 1]!).toISOString();
console.log(`${bars.toLocaleString('en')} M1 bars, ${first} → ${last}`);

const ours = measure(kernels, series, 25);
report('packages/domain indicators (typed-array kernels)', kernels, ours);
const verdict = (ms: number) => (ms < TARGET_MS ? 'met' : 'NOT met');
console.log(
  `all indicators over one year of M1: median ${ours.total.toFixed(1)} ms wall (target < ${TARGET_MS} ms: ` +
    `${verdict(ours.total)}), ${ours.cpuTotal.toFixed(1)} ms CPU (${verdict(ours.cpuTotal)}), ` +
    `fastest run ${ours.best.toFixed(1)} ms (${verdict(ours.best)}), ` +
    `sum of each indicator's fastest ${ours.bestEach.toFixed(1)} ms (${verdict(ours.bestEach)})`,
);

/**
 * The memory floor: the set above returns 26 arrays of `bars` doubles and builds one more (the
 * ohlc4 column of the last job); allocating and writing that many arrays, with no arithmetic, is the
 * least any implementation of this API can cost on this machine.
 */
const OUTPUT_ARRAYS = 27;
const floorJob: Job[] = [
  [
    `allocate and write ${OUTPUT_ARRAYS} arrays`,
    (s) =>
      Array.from({ length: OUTPUT_ARRAYS }, () => {
        const out = new Float64Array(s.close.length);
        for (let i = 0; i < out.length; i++) out[i] = s.close[i]!;
        return out;
      }),
  ],
];
const floor = measure(floorJob, series, 25);
console.log(
  `memory floor (${OUTPUT_ARRAYS} output arrays of ${bars.toLocaleString('en')} doubles, no arithmetic): ` +
    `median ${floor.total.toFixed(1)} ms wall, ${floor.cpuTotal.toFixed(1)} ms CPU, fastest ${floor.best.toFixed(1)} ms`,
);

const theirs = measure(library, series, 5);
report('trading-signals 8 (bar by bar, median of 5 runs)', library, theirs);
console.log(
  `trading-signals over the same year: median ${theirs.total.toFixed(1)} ms wall, ${theirs.cpuTotal.toFixed(1)} ms CPU ` +
    `(${(theirs.cpuTotal / ours.cpuTotal).toFixed(1)}× the kernels' CPU time, with fewer outputs)`,
);
