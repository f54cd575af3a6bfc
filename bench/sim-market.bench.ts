/**
 * Simulated market speed: what a chart or an ATR request costs.
 * Run: `npx tsx bench/sim-market.bench.ts` (a few seconds). Each figure is the median of 15 runs, each
 * on a fresh market (no candle cache), after 3 warm-ups; `quoteAt` is timed over 200,000 calls.
 */
import { createSimMarket } from '../apps/server/src/brokers/sim/market';
import type { Timeframe } from '../apps/server/src/brokers/types';

const MIN = 60_000;
const DAY = 86_400_000;
const NOW = Date.parse('2026-01-07T15:00:00Z');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function time(label: string, symbol: string, tf: Timeframe, from: number, target: number): void {
  const runs: number[] = [];
  let count = 0;
  for (let i = 0; i < 18; i++) {
    const market = createSimMarket({ seed: 20240601 + i });
    const t0 = performance.now();
    count = market.candles(symbol, tf, from, NOW, NOW).length;
    if (i >= 3) runs.push(performance.now() - t0);
  }
  const ms = median(runs);
  console.log(
    `${label}: ${count} candles, median ${ms.toFixed(1)} ms (target < ${target} ms: ${ms < target ? 'met' : 'NOT met'})`,
  );
}

time('1,000 M1 candles of GBPJPY (a cross)', 'GBPJPY', 'M1', NOW - 1000 * MIN, 100);
time('1,000 M1 candles of EURUSD', 'EURUSD', 'M1', NOW - 1000 * MIN, 100);
time('10 years of D1 candles of EURUSD', 'EURUSD', 'D1', NOW - 3652 * DAY, 100);
time('2 years of H1 candles of US100', 'US100', 'H1', NOW - 730 * DAY, 500);

const market = createSimMarket({ seed: 20240601 });
const t0 = performance.now();
let sink = 0;
for (let i = 0; i < 200_000; i++) sink += market.quoteAt('EURUSD', NOW - i * 997).bid;
const perCall = ((performance.now() - t0) * 1000) / 200_000;
console.log(`quoteAt at scattered instants: ${perCall.toFixed(2)} µs a call (checksum ${sink.toFixed(0)})`);
