/** Engine rules beyond the worked case: pending entries, latency, margin, currency conversion. */
import { describe, expect, it } from 'vitest';
import { createBacktestEngine } from './engine';
import { ORDER_FIELDS, type BacktestBars, type BacktestSettings, type BacktestSymbol } from './types';

const H = 3_600_000;
// prettier-ignore
const rows = [
  [1.1000, 1.1010, 1.0990, 1.1000],
  [1.1000, 1.1040, 1.0980, 1.1020], // range 1.0980 .. 1.1040
  [1.1020, 1.1030, 1.1010, 1.1025],
  [1.1025, 1.1026, 1.1024, 1.1025],
];
const col = (k: number) => Float64Array.from(rows, (r) => r[k]!);
const bars: BacktestBars = {
  time: Float64Array.from(rows, (_r, i) => i * H),
  open: col(0),
  high: col(1),
  low: col(2),
  close: col(3),
};
const symbol: BacktestSymbol = {
  contractSize: 100_000,
  digits: 5,
  volumeMin: 0.01,
  volumeStep: 0.01,
  volumeMax: 100,
  quoteToAccountRate: 1,
};
const settings: BacktestSettings = {
  initialBalance: 10_000,
  accountCurrency: 'USD',
  riskPercent: 1,
  maxOpenPositions: 1,
  spread: 0,
  commissionPerLot: 0,
  slippageMs: 0,
  slippageR: 0,
  barMs: H,
  leverage: 100,
};

/** One order: side, kind, price, sl, tp, tp_r, sl_distance, risk (NaN = not given). */
function order(
  fields: Partial<Record<'side' | 'kind' | 'price' | 'sl' | 'tp' | 'tpR' | 'slDistance' | 'risk', number>>,
) {
  const o = new Float64Array(ORDER_FIELDS).fill(NaN);
  const keys = ['side', 'kind', 'price', 'sl', 'tp', 'tpR', 'slDistance', 'risk'] as const;
  keys.forEach((k, i) => (o[i] = fields[k] ?? (i < 2 ? 0 : NaN)));
  return o;
}

function run(o: Float64Array, s: Partial<BacktestSettings> = {}, sym: Partial<BacktestSymbol> = {}) {
  const e = createBacktestEngine(bars, { ...symbol, ...sym }, { ...settings, ...s });
  e.bar(0);
  e.submit(0, o);
  for (let i = 1; i < rows.length; i++) e.bar(i);
  return e.finish();
}

describe('backtest engine', () => {
  it('fills a buy limit at its price when the range reaches it, at the open when the bar opens below it', () => {
    const limit = run(order({ side: 1, kind: 1, price: 1.099, sl: 1.095 }));
    expect(limit.trades[0]).toMatchObject({ entryIndex: 1, entryPrice: 1.099 });
    const gapped = run(order({ side: 1, kind: 1, price: 1.101, sl: 1.095 }));
    expect(gapped.trades[0]!.entryPrice).toBe(1.1); // bar 1 opens at 1.1000, below the limit
  });

  it('fills a buy stop when the range rises through it; a sell stop waits while the price stays above', () => {
    const buyStop = run(order({ side: 1, kind: 2, price: 1.103, sl: 1.099 }));
    expect(buyStop.trades[0]).toMatchObject({ entryIndex: 1, entryPrice: 1.103 });
    const sellStop = run(order({ side: -1, kind: 2, price: 1.097, sl: 1.1 }));
    expect(sellStop.trades).toHaveLength(0);
  });

  it('fills a market order slippage_ms after the open, interpolated between open and close', () => {
    // Half an hour into bar 1 (open 1.1000, close 1.1020): 1.1010.
    const r = run(order({ side: 1, sl: 1.09 }), { slippageMs: H / 2 });
    expect(r.trades[0]!.entryPrice).toBeCloseTo(1.101, 10);
  });

  it('skips an entry whose margin exceeds the equity', () => {
    // SL 0.0001 away at 1 % risk: 100 ÷ (0.0001 × 100,000) = 10 lots = 1.1 M notional; at 1:10 the margin is 110,000.
    const r = run(order({ side: 1, slDistance: 0.0001 }), { leverage: 10 });
    expect(r.trades).toHaveLength(0);
    expect(r.warnings.marginRejected).toBe(1);
  });

  it('converts P/L and risk into the account currency with the quote→account rate', () => {
    // A quote currency worth 0.5 account units: 100 risk needs twice the lots, P/L per pip halves.
    const r = run(order({ side: 1, sl: 1.09, tp: 1.103 }), {}, { quoteToAccountRate: 0.5 });
    // Entry 1.1000, SL distance 0.0100 → lots = 100 ÷ (0.01 × 100,000 × 0.5) = 0.2; TP +0.003 → 0.003 × 20,000 × 0.5 = 30.
    expect(r.trades[0]).toMatchObject({ volume: 0.2, exitReason: 'tp', pnl: 30 });
  });
});
