/** Inputs and measuring helpers shared by the benchmarks. */
import { allocateSeries, type CandleSeries } from '../packages/domain/src/index';

const MIN = 60_000;
const WEEK = 7 * 86_400_000;

/** 52 FX weeks of M1 from 2025-01-05 (a Sunday) 22:00 UTC, 7,200 bars a week. */
export function yearOfM1(): CandleSeries {
  const weekStart = Date.parse('2025-01-05T22:00:00Z');
  const perWeek = 5 * 1440;
  const n = 52 * perWeek;
  const s = allocateSeries(n);
  let seed = 20261122;
  const random = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  let price = 1.1;
  for (let i = 0; i < n; i++) {
    s.time[i] = weekStart + Math.floor(i / perWeek) * WEEK + (i % perWeek) * MIN;
    const open = price;
    price = Math.round((price + (random() - 0.5) * 0.0004) * 1e5) / 1e5;
    s.open[i] = open;
    s.close[i] = price;
    s.high[i] = Math.max(open, price) + Math.round(random() * 15) / 1e5;
    s.low[i] = Math.min(open, price) - Math.round(random() * 15) / 1e5;
    s.volume[i] = 1 + Math.floor(random() * 120);
  }
  return s;
}

export function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** CPU time of this process (user + system), in ms. */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
