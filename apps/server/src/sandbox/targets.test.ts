/**
 * Multi-target entries through the real sandbox: `targets=` of ctx.buy / ctx.sell and signals()'s
 * "targets" reach the engine as the strategy gave them, the strategy sees what is left of its
 * position after a target, and bad target lists fail the run with a message naming the mistake.
 */
import { backtestSignals, computeIndicator, roundToDigits, TARGET_KIND } from '@tradedesk/domain';
import { describe, expect, it } from 'vitest';
import { EURUSD_TEST_SYMBOL, sandboxTestRequest, TEST_SETTINGS, waveBars } from '../testing/sandbox-bars';
import { runInSandbox } from './host';

describe('strategy targets', { timeout: 240_000 }, () => {
  it('vectorised: one target list for every entry gives the in-process engine result, trades in parts', async () => {
    const bars = waveBars(3000);
    const code = `
from itertools import compress
INDICATORS = ["crossover(ema(5),ema(20))", "crossunder(ema(5),ema(20))", "atr(14)"]

def signals(data, params):
    up, down = data.crossover("ema(5)", "ema(20)"), data.crossunder("ema(5)", "ema(20)")
    close, atr = data.close, data.atr(14)
    sl = {i: close[i] - 2 * atr[i] for i in compress(range(len(close)), up) if atr[i] == atr[i]}
    sl.update({i: close[i] + 2 * atr[i] for i in compress(range(len(close)), down) if atr[i] == atr[i]})
    return {"entries": up, "exits": down, "short_entries": down, "short_exits": up, "sl": sl,
            "targets": [(0.5, 0.5), {"r": 1.5, "share": 0.5}]}
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
    const R = TARGET_KIND.r;
    const expected = backtestSignals(bars, EURUSD_TEST_SYMBOL, TEST_SETTINGS, {
      entries: flags(up),
      exits: flags(down),
      short_entries: flags(down),
      short_exits: flags(up),
      sl,
      targets: { index: null, packed: Float64Array.from([2, R, 0.5, 0.5, R, 1.5, 0.5]) },
    });
    expect(expected.trades.filter((t) => t.parts?.length === 2).length).toBeGreaterThan(2);
    expect(outcome.result.trades).toEqual(expected.trades);
    expect([...outcome.result.equity]).toEqual([...expected.equity]);
  });

  it('per-bar: ctx.position shows the volume left after the first target; a dict of target lists per bar', async () => {
    const code = `
def on_bar(ctx, bar):
    p = ctx.position
    if p is None and bar.i % 40 == 10:
        ctx.buy(sl_distance=0.0010, targets=[{"r": 0.5, "share": 0.5}, (3, 0.25)])
    if p is not None and p.volume != ctx.state.get("volume"):
        print("volume", bar.i, p.volume)
    ctx.state["volume"] = p.volume if p is not None else None
`;
    const outcome = await runInSandbox(sandboxTestRequest(code, {}, waveBars(2000)));
    if (!outcome.ok) throw new Error(outcome.error);
    const split = outcome.result.trades.filter((t) => t.parts && t.parts[0]!.exitReason === 'tp');
    expect(split.length).toBeGreaterThan(2);
    for (const t of split) {
      const first = t.parts![0]!;
      // 50 % closed at 0.5 R (floored to the step); the strategy sees the rest on that very bar.
      expect(first.volume).toBe(roundToDigits(Math.floor((t.volume * 0.5) / 0.01 + 1e-9) * 0.01, 2));
      expect(outcome.output).toContain(
        `volume ${first.exitIndex} ${roundToDigits(t.volume - first.volume, 8)}\n`,
      );
    }

    const vectorised = `
def signals(data, params):
    n = len(data)
    entries = [i in (20, 400) for i in range(n)]
    return {"entries": entries, "sl": {20: data.close[20] - 0.001, 400: data.close[400] - 0.001},
            "targets": {20: [(1, 1)], 400: None}, "tp_r": {400: 2.0}}
`;
    const v = await runInSandbox(sandboxTestRequest(vectorised, {}, waveBars(2000)));
    if (!v.ok) throw new Error(v.error);
    expect(v.result.trades.map((t) => t.entryIndex)).toEqual([21, 401]);
    // Bar 20's entry has its one target at 1 R (the take profit of all of it); bar 400's a plain 2 R.
    const [a, b] = v.result.trades;
    expect(a!.tp - a!.entryPrice).toBeCloseTo(a!.entryPrice - a!.sl, 10);
    expect(b!.tp - b!.entryPrice).toBeCloseTo(2 * (b!.entryPrice - b!.sl), 10);
  });

  it.each([
    [
      'targets with tp_r',
      'ctx.buy(sl_distance=0.001, tp_r=2, targets=[(1, 1)])',
      'ValueError: ctx.buy(): give targets or tp / tp_r, not both',
    ],
    [
      'shares above the whole position',
      'ctx.sell(sl_distance=0.001, targets=[(1, 0.7), (2, 0.5)])',
      'ValueError: ctx.sell(): the target shares sum to 1.2, more than the whole position (1)',
    ],
    [
      'a dict with an unknown key',
      'ctx.buy(sl_distance=0.001, targets=[{"r": 1, "size": 0.5}])',
      `ValueError: ctx.buy(): target 1 must be {"r": R, "share": S} or {"price": P, "share": S}, got the keys ['r', 'size']`,
    ],
    [
      'targets out of order',
      'ctx.buy(sl_distance=0.001, targets=[(2, 0.5), (1, 0.5)])',
      'ValueError: ctx.buy(): target 2 is not beyond target 1: give targets nearest first',
    ],
    [
      'one pair instead of a list of pairs',
      'ctx.buy(sl_distance=0.001, targets=(1, 0.5))',
      'TypeError: ctx.buy(): target 1 must be an (r, share) pair or a dict, got 1',
    ],
    [
      'a zero share',
      'ctx.buy(sl_distance=0.001, targets=[(1, 0)])',
      "ValueError: ctx.buy(): target 1's share must be greater than 0 and at most 1, got 0",
    ],
    [
      'a price target below an R target of a buy (seen at the fill)',
      'ctx.buy(sl_distance=0.001, targets=[{"price": 2.0, "share": 0.5}, (1, 0.5)])',
      /^The targets cannot be used: target 2 at 1\.1\d* is not beyond target 1 at 2: give targets nearest first\.$/,
    ],
  ])('per-bar: %s fails the run with its message', async (_name, call, message) => {
    const code = `
def on_bar(ctx, bar):
    if bar.i == 5:
        ${call}
`;
    const outcome = await runInSandbox(sandboxTestRequest(code));
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    if (typeof message === 'string') {
      expect(outcome.error).toContain('File "<strategy>", line 4, in on_bar');
      expect(outcome.error.split('\n').at(-1)).toBe(message);
    } else expect(outcome.error).toMatch(message);
  });

  it("vectorised: a bad target list of one bar fails with signals()'s own message", async () => {
    const code = `
def signals(data, params):
    return {"entries": [False] * len(data), "targets": {3: [(1, 1.5)]}}
`;
    const outcome = await runInSandbox(sandboxTestRequest(code));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok)
      expect(outcome.error.split('\n').at(-1)).toBe(
        "ValueError: signals()['targets'][3]: target 1's share must be greater than 0 and at most 1, got 1.5",
      );
  });
});
