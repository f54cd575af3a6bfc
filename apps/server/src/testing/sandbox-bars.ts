/** Deterministic bars and settings for sandbox and backtest tests. */
import type { BacktestSettings, BacktestSymbol } from '@tradedesk/domain';
import type { RunRequest, SandboxBars } from '../sandbox/protocol';

export function waveBars(n: number, barMs = 60_000): SandboxBars {
  const bars = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n).fill(100),
  };
  let p = 1.1;
  for (let i = 0; i < n; i++) {
    bars.time[i] = Date.UTC(2024, 0, 1) + i * barMs;
    bars.open[i] = p;
    p += Math.sin(i / 50) * 0.0004 + Math.sin(i / 7) * 0.0001;
    bars.close[i] = p;
    bars.high[i] = Math.max(bars.open[i]!, p) + 0.0002;
    bars.low[i] = Math.min(bars.open[i]!, p) - 0.0002;
  }
  return bars;
}

export const EURUSD_TEST_SYMBOL: BacktestSymbol = {
  contractSize: 100_000,
  digits: 5,
  volumeMin: 0.01,
  volumeStep: 0.01,
  volumeMax: 100,
  quoteToAccountRate: 1,
};

export const TEST_SETTINGS: BacktestSettings = {
  initialBalance: 10_000,
  accountCurrency: 'USD',
  riskPercent: 0.5,
  maxOpenPositions: 1,
  spread: 0.0001,
  commissionPerLot: 3,
  slippageMs: 0,
  slippageR: 0,
  barMs: 60_000,
  leverage: 30,
};

export function sandboxTestRequest(
  code: string,
  params: object = {},
  bars = waveBars(300),
): Omit<RunRequest, 'type'> {
  return {
    code,
    paramsJson: JSON.stringify(params),
    bars,
    symbol: EURUSD_TEST_SYMBOL,
    settings: TEST_SETTINGS,
  };
}
