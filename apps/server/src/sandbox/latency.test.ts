/**
 * SIM backtests fill market orders at the exact price slippage_ms after the open (issue 11): the
 * bars' `latencyBid` column crosses into the sandbox and reaches the engine there.
 */
import { backtestSignals } from '@tradedesk/domain';
import { describe, expect, it } from 'vitest';
import { EURUSD_TEST_SYMBOL, sandboxTestRequest, TEST_SETTINGS, waveBars } from '../testing/sandbox-bars';
import { runInSandbox } from './host';

const code = `
def signals(data, params):
    n = len(data.close)
    return {"entries": [1 if i == 10 else 0 for i in range(n)], "sl": {10: data.close[10] - 0.01}}
`;

describe('latency fills through the sandbox', { timeout: 240_000 }, () => {
  it('enters at the bars’ exact latency bid plus the spread, as the in-process engine does', async () => {
    const plain = waveBars(300);
    // An exact price that no interpolation between open and close would give.
    const bars = { ...plain, latencyBid: plain.open.map((o) => o + 0.00037) };
    const settings = { ...TEST_SETTINGS, slippageMs: 30_000 };
    const outcome = await runInSandbox({ ...sandboxTestRequest(code, {}, bars), settings });
    if (!outcome.ok) throw new Error(outcome.error);
    const entry = outcome.result.trades[0]!;
    expect(entry.entryIndex).toBe(11);
    expect(entry.entryPrice).toBeCloseTo(bars.latencyBid[11]! + TEST_SETTINGS.spread, 12);
    const entries = Uint8Array.from({ length: 300 }, (_, i) => (i === 10 ? 1 : 0));
    const sl = new Float64Array(300).fill(NaN);
    sl[10] = plain.close[10]! - 0.01;
    const expected = backtestSignals(bars, EURUSD_TEST_SYMBOL, settings, { entries, sl });
    expect(outcome.result.trades).toEqual(expected.trades);
    // Without the column the same run interpolates half way into bar 11.
    const interpolated = backtestSignals(plain, EURUSD_TEST_SYMBOL, settings, { entries, sl });
    expect(interpolated.trades[0]!.entryPrice).toBeCloseTo(
      plain.open[11]! + (plain.close[11]! - plain.open[11]!) / 2 + TEST_SETTINGS.spread,
      12,
    );
  });
});
