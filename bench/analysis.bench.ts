/**
 * Analysis speed: one year of M1 (~381,600 bars, bench-data.ts) → resample to M15 → indicators
 * (ATR 14, daily VWAP) → each analysis, target < 1 s per analysis (issue 16), and the same
 * computation written in pandas/numpy (bench/analysis_pandas.py) run side by side on the same bars,
 * reporting the ratio (goal: ≥ 3× faster than pandas) and checking that both give the same figures.
 * Run: `npx tsx bench/analysis.bench.ts` (or `npm run bench analysis`). Python with pandas is looked
 * for as $PANDAS_PYTHON, python3, then /usr/bin/python3 (Debian's python3-pandas); without it the
 * pandas side is skipped and said so. Figures: medians of 9 runs after 3 warm-ups of every analysis, and the best run, in wall-clock and
 * in process CPU time; the ratio and its goal are judged on CPU time, because the shared machine's
 * load inflates wall times unevenly between the two processes (they run one after the other).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import {
  analysisIndicators,
  resampleForAnalysis,
  runAnalysis,
  type AnalysisKind,
  type AnalysisOutcome,
  type CandleSeries,
} from '../packages/domain/src/index';
import { cpuMs, median, yearOfM1 } from './bench-data';

const RUNS = 9;
const WARM_UPS = 3;
const TARGET_MS = 1000;
const GOAL_RATIO = 3;
const KINDS: AnalysisKind[] = ['TREND_CONTINUATION', 'VWAP_CONDITIONAL', 'ATR_SCENARIO'];

interface Timing {
  resample: number;
  indicators: number;
  analysis: number;
  total: number;
}

function once(m1: CandleSeries, kind: AnalysisKind): { t: Timing; cpu: number; outcome: AnalysisOutcome } {
  const c0 = cpuMs();
  const t0 = performance.now();
  const bars = resampleForAnalysis(m1, 'M15');
  const t1 = performance.now();
  const ind = analysisIndicators(bars, kind);
  const t2 = performance.now();
  const outcome = runAnalysis(bars, kind, ind);
  const t3 = performance.now();
  return {
    t: { resample: t1 - t0, indicators: t2 - t1, analysis: t3 - t2, total: t3 - t0 },
    cpu: cpuMs() - c0,
    outcome,
  };
}

/** The figures both implementations must agree on (counts, so exact). */
function figures(o: AnalysisOutcome): unknown {
  if (o.type === 'TREND_CONTINUATION') {
    return o.result.transitions.map((t) => [
      t.comparableDays,
      t.continuedDays,
      t.byRange.map((b) => b.rate.hits),
    ]);
  }
  if (o.type === 'VWAP_CONDITIONAL') {
    return o.result.transitions.map((t) =>
      (['above', 'below', 'at'] as const).map((p) => [
        t.byPosition[p].up.hits,
        t.byPosition[p].down.hits,
        t.byPosition[p].flat.hits,
      ]),
    );
  }
  return [
    o.result.entries,
    o.result.cells
      .filter((c) => c.m === 1 && (c.k === 1 || c.k === 2))
      .map((c) => [c.direction, c.k, c.wins, c.losses, c.unresolved]),
  ];
}

function findPandas(): string | undefined {
  for (const py of [process.env.PANDAS_PYTHON, 'python3', '/usr/bin/python3'].filter(Boolean) as string[]) {
    const r = spawnSync(py, ['-c', 'import pandas, numpy'], { stdio: 'ignore' });
    if (r.status === 0) return py;
  }
  return undefined;
}

const m1 = yearOfM1();
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on a shared machine; ${m1.time.length} M1 bars → M15`,
);

const ours: Record<string, { t: Timing; best: number; cpu: number; figures: unknown }> = {};
// Warm every path first: they share the resampler and indicators, whose compilation would otherwise
// be charged to whichever analysis runs first.
for (let r = 0; r < WARM_UPS; r++) for (const kind of KINDS) once(m1, kind);
for (const kind of KINDS) {
  const runs: Array<ReturnType<typeof once>> = [];
  for (let r = 0; r < RUNS; r++) runs.push(once(m1, kind));
  const pick = (k: keyof Timing) => median(runs.map((x) => x.t[k]));
  ours[kind] = {
    t: {
      resample: pick('resample'),
      indicators: pick('indicators'),
      analysis: pick('analysis'),
      total: pick('total'),
    },
    best: Math.min(...runs.map((x) => x.t.total)),
    cpu: median(runs.map((x) => x.cpu)),
    figures: figures(runs[0]!.outcome),
  };
}

let pandas:
  | { timings: Record<string, Timing & { best: number; cpu: number }>; figures: Record<string, unknown> }
  | undefined;
const py = findPandas();
if (py) {
  const dir = mkdtempSync(path.join(tmpdir(), 'analysis-bench-'));
  try {
    const file = path.join(dir, 'm1.f64');
    const cols = [m1.time, m1.open, m1.high, m1.low, m1.close, m1.volume];
    writeFileSync(file, Buffer.concat(cols.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength))));
    const r = spawnSync(
      py,
      [path.join(import.meta.dirname, 'analysis_pandas.py'), file, String(RUNS), String(WARM_UPS)],
      {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    if (r.status !== 0) throw new Error(`pandas reference failed: ${r.stderr}`);
    pandas = JSON.parse(r.stdout) as typeof pandas;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const f = (v: number) => v.toFixed(1).padStart(8);
console.log(
  `\n  ${'analysis'.padEnd(20)} ${'resample'.padStart(8)} ${'indic.'.padStart(8)} ${'analysis'.padStart(8)} ${'total'.padStart(8)} ${'best'.padStart(8)} ${'CPU'.padStart(8)}   (ms, medians)`,
);
let failed = false;
for (const kind of KINDS) {
  const o = ours[kind]!;
  console.log(
    `  ${('ours ' + kind).padEnd(20).slice(0, 28)} ${f(o.t.resample)} ${f(o.t.indicators)} ${f(o.t.analysis)} ${f(o.t.total)} ${f(o.best)} ${f(o.cpu)}`,
  );
  if (o.t.total >= TARGET_MS) failed = true;
  const p = pandas?.timings[kind];
  if (p) {
    console.log(
      `  ${'pandas'.padEnd(20)} ${f(p.resample)} ${f(p.indicators)} ${f(p.analysis)} ${f(p.total)} ${f(p.best)} ${f(p.cpu)}`,
    );
    const ratio = p.cpu / o.cpu;
    const wallRatio = p.total / o.t.total;
    const bestRatio = p.best / o.best;
    const same = JSON.stringify(pandas!.figures[kind]) === JSON.stringify(o.figures);
    console.log(
      `  → ${kind}: ${o.t.total.toFixed(0)} ms (target < ${TARGET_MS} ms ${o.t.total < TARGET_MS ? 'met' : 'MISSED'}), ` +
        `${ratio.toFixed(1)}× less CPU than pandas (goal ≥ ${GOAL_RATIO}× ${ratio >= GOAL_RATIO ? 'met' : 'MISSED'}; ` +
        `wall medians ${wallRatio.toFixed(1)}×, best runs ${bestRatio.toFixed(1)}×), ` +
        `figures ${same ? 'identical' : 'DIFFER'}`,
    );
    if (!same) {
      console.log(
        `    ours:   ${JSON.stringify(o.figures)}\n    pandas: ${JSON.stringify(pandas!.figures[kind])}`,
      );
      failed = true;
    }
  } else {
    console.log(
      `  → ${kind}: ${o.t.total.toFixed(0)} ms (target < ${TARGET_MS} ms ${o.t.total < TARGET_MS ? 'met' : 'MISSED'}); pandas not available: comparison skipped`,
    );
  }
}
if (failed) process.exitCode = 1;
