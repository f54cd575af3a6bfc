/**
 * The strategy API through the real sandbox: the Python side hands the engine exactly what the
 * strategy asked for (checked against the engine run in process on the same arrays), and per-bar
 * strategies see their position.
 */
import { backtestSignals, computeIndicator } from '@tradedesk/domain';
import { describe, expect, it } from 'vitest';
import { EURUSD_TEST_SYMBOL, sandboxTestRequest, TEST_SETTINGS, waveBars } from '../testing/sandbox-bars';
import { runInSandbox } from './host';

describe('strategy runtime', { timeout: 240_000 }, () => {
  it('vectorised: requested crossings, a sparse stop dict and a constant tp_r give the in-process engine result', async () => {
    const bars = waveBars(3000);
    const code = `
from itertools import compress
INDICATORS = ["crossover(ema(5),ema(20))", "crossunder(ema(5),ema(20))", "atr(14)"]

def signals(data, params):
    up, down = data.crossover("ema(5)", "ema(20)"), data.crossunder("ema(5)", "ema(20)")
    close, atr = data.close, data.atr(14)
    sl = {i: close[i] - 2 * atr[i] for i in compress(range(len(close)), up) if atr[i] == atr[i]}
    sl.update({i: close[i] + 2 * atr[i] for i in compress(range(len(close)), down) if atr[i] == atr[i]})
    return {"entries": up, "exits": down, "short_entries": down, "short_exits": up, "sl": sl, "tp_r": 1.5}
`;
    const outcome = await runInSandbox(sandboxTestRequest(code, {}, bars));
    if (!outcome.ok) throw new Error(outcome.error);
    const up = computeIndicator('crossover(ema(5),ema(20))', bars);
    const down = computeIndicator('crossunder(ema(5),ema(20))', bars);
    const atr = computeIndicator('atr(14)', bars);
    const sl = new Float64Array(bars.close.length).fill(NaN);
    for (let i = 0; i < sl.length; i++) {
      if (Number.isNaN(atr[i]!)) continue;
      if (up[i]) sl[i] = bars.close[i]! - 2 * atr[i]!;
      else if (down[i]) sl[i] = bars.close[i]! + 2 * atr[i]!;
    }
    const flags = (a: Float64Array) => Uint8Array.from(a, (x) => (x ? 1 : 0));
    const expected = backtestSignals(bars, EURUSD_TEST_SYMBOL, TEST_SETTINGS, {
      entries: flags(up),
      exits: flags(down),
      short_entries: flags(down),
      short_exits: flags(up),
      sl,
      tp_r: new Float64Array(sl.length).fill(1.5),
    });
    expect(expected.trades.length).toBeGreaterThan(5);
    expect(outcome.result.trades).toEqual(expected.trades);
    expect([...outcome.result.equity]).toEqual([...expected.equity]);
  });

  it('vectorised: flags computed in Python and per-bar stop lists with None cross intact', async () => {
    const bars = waveBars(2000);
    const code = `
from tradedesk import crossover, crossunder
INDICATORS = ["ema(5)", "ema(20)", "atr(14)"]

def signals(data, params):
    fast, slow, close, atr = data.ema(5), data.ema(20), data.close, data.atr(14)
    up, down = crossover(fast, slow), crossunder(fast, slow)
    sl = [close[i] - 2 * atr[i] if up[i] and atr[i] == atr[i] else
          close[i] + 2 * atr[i] if down[i] and atr[i] == atr[i] else None for i in range(len(close))]
    return {"entries": up, "exits": [bool(x) for x in down], "short_entries": down, "short_exits": up,
            "sl": sl, "tp": [None] * len(close), "tp_r": [2.0] * len(close)}
`;
    const outcome = await runInSandbox(sandboxTestRequest(code, {}, bars));
    if (!outcome.ok) throw new Error(outcome.error);
    const fast = computeIndicator('ema(5)', bars);
    const slow = computeIndicator('ema(20)', bars);
    const atr = computeIndicator('atr(14)', bars);
    const n = bars.close.length;
    const up = new Uint8Array(n);
    const down = new Uint8Array(n);
    const sl = new Float64Array(n).fill(NaN);
    for (let i = 1; i < n; i++) {
      up[i] = fast[i - 1]! <= slow[i - 1]! && fast[i]! > slow[i]! ? 1 : 0;
      down[i] = slow[i - 1]! <= fast[i - 1]! && slow[i]! > fast[i]! ? 1 : 0;
      if (Number.isNaN(atr[i]!)) continue;
      if (up[i]) sl[i] = bars.close[i]! - 2 * atr[i]!;
      else if (down[i]) sl[i] = bars.close[i]! + 2 * atr[i]!;
    }
    const expected = backtestSignals(bars, EURUSD_TEST_SYMBOL, TEST_SETTINGS, {
      entries: up,
      exits: down,
      short_entries: down,
      short_exits: up,
      sl,
      tp: new Float64Array(n).fill(NaN),
      tp_r: new Float64Array(n).fill(2),
    });
    expect(expected.trades.length).toBeGreaterThan(3);
    expect(outcome.result.trades).toEqual(expected.trades);
  });

  it("vectorised: a stop dict with a bar index that is not an integer fails with the strategy's own message", async () => {
    const code = `
def signals(data, params):
    return {"entries": [False] * len(data), "sl": {2.5: 1.0}}
`;
    const outcome = await runInSandbox(sandboxTestRequest(code));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok)
      expect(outcome.error).toContain("signals()['sl'] has bar index 2.5: bar indices must be integers");
  });

  it('per-bar: ctx.position reflects fills and stop exits; print output is returned', async () => {
    const code = `
def on_bar(ctx, bar):
    if bar.i == 10:
        ctx.sell(sl_distance=0.0005, tp_r=100)  # the test bars rise: the stop is hit
    if bar.i == 11:
        p = ctx.position
        print("at 11:", p.side, p.entry_index, round(p.sl - p.entry_price, 6))
    if ctx.position is None and bar.i > 11 and not ctx.state.get("seen"):
        ctx.state["seen"] = True
        print("flat again at", bar.i)
`;
    const outcome = await runInSandbox(sandboxTestRequest(code));
    if (!outcome.ok) throw new Error(outcome.error);
    const [t] = outcome.result.trades;
    expect(t).toMatchObject({ side: 'sell', entryIndex: 11, exitReason: 'sl' });
    expect(outcome.output).toContain('at 11: sell 11 0.0005');
    expect(outcome.output).toContain(`flat again at ${t!.exitIndex}`);
  });
});
