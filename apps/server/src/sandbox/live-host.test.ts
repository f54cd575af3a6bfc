/**
 * The sandbox in live mode: the strategy loaded once and stepped bar by bar sees what a backtest sees
 * at the same bar (series kept in init follow the new bars), tags and targets come back with their
 * orders, and a strategy error or a killed process surfaces as a clear failure.
 */
import { computeIndicator, decodeOrders } from '@tradedesk/domain';
import { describe, expect, it } from 'vitest';
import { waveBars } from '../testing/sandbox-bars';
import type { SandboxBars } from './protocol';
import { startLiveSandbox } from './live-host';

const FLAT = { side: 0, entryPrice: 0, volume: 0, sl: NaN, tp: NaN, entryIndex: -1 };
const upTo = (bars: SandboxBars, n: number): SandboxBars => ({
  time: bars.time.slice(0, n),
  open: bars.open.slice(0, n),
  high: bars.high.slice(0, n),
  low: bars.low.slice(0, n),
  close: bars.close.slice(0, n),
  volume: bars.volume.slice(0, n),
});

describe('live sandbox', { timeout: 120_000 }, () => {
  it('steps a per-bar strategy: orders at the crossings a backtest sees, with their tags', async () => {
    const code = `
INDICATORS = ["ema(5)", "ema(20)"]

def init(ctx, params):
    ctx.fast = ctx.data.ema(5)
    ctx.slow = ctx.data.ema(20)
    ctx.state["bars"] = 0

def on_bar(ctx, bar):
    ctx.state["bars"] += 1
    i = bar.i
    if ctx.fast[i - 1] <= ctx.slow[i - 1] and ctx.fast[i] > ctx.slow[i]:
        ctx.buy(sl_distance=0.002, tp_r=2, tag=f"cross up {ctx.state['bars']}")
    if ctx.position is not None and ctx.position.side == "buy":
        ctx.close()
`;
    const bars = waveBars(400);
    let died = '';
    const sb = await startLiveSandbox(code, '{}', { onDeath: (r) => (died = r) });
    try {
      expect(sb.style).toBe('on_bar');
      const fast = computeIndicator('ema(5)', bars);
      const slow = computeIndicator('ema(20)', bars);
      const seen: number[] = [];
      const expected: number[] = [];
      for (let n = 100; n <= 400; n++) {
        const i = n - 1;
        const position = n === 300 ? { ...FLAT, side: 1, entryPrice: 1.1, volume: 0.1 } : FLAT;
        const r = await sb.step({ symbol: 'EURUSD', bars: upTo(bars, n), position, balance: 10_000 });
        if (fast[i - 1]! <= slow[i - 1]! && fast[i]! > slow[i]!) expected.push(i);
        const sides = Array.from({ length: r.orders.length / 8 }, (_, k) => r.orders[k * 8]);
        if (sides.includes(1)) {
          seen.push(i);
          expect(r.tags[sides.indexOf(1)]).toBe(`cross up ${n - 99}`);
        }
        // The position handed in is what ctx.position shows: a buy is closed.
        if (n === 300) expect(sides).toContain(0);
      }
      expect(expected.length).toBeGreaterThan(0);
      expect(seen).toEqual(expected);
      expect(died).toBe('');
    } finally {
      sb.close();
    }
  });

  it('targets come back beside their orders, from ctx.buy and from signals(), as decodeOrders reads them', async () => {
    const perBar = `
def on_bar(ctx, bar):
    if ctx.position is None:
        ctx.buy(sl_distance=0.002, targets=[(1, 0.5), {"price": 1.2, "share": 0.25}], tag="two")
    else:
        print("left", ctx.position.volume)
        ctx.sell(sl_distance=0.002, tp_r=2)
`;
    const sb = await startLiveSandbox(perBar, '{}', { onDeath: () => {} });
    try {
      const r = await sb.step({ symbol: 'EURUSD', bars: waveBars(50), position: FLAT, balance: 1 });
      expect(decodeOrders(r.orders, r.tags, r.targets)).toMatchObject([
        {
          type: 'entry',
          tag: 'two',
          targets: [
            { kind: 'r', value: 1, share: 0.5 },
            { kind: 'price', value: 1.2, share: 0.25 },
          ],
        },
      ]);
      // The position the run hands in (what is left after a target) is what the strategy sees.
      const left = { ...FLAT, side: 1, entryPrice: 1.1, volume: 0.05 };
      const next = await sb.step({ symbol: 'EURUSD', bars: waveBars(51), position: left, balance: 1 });
      expect(next.output).toBe('left 0.05\n');
      expect(decodeOrders(next.orders, next.tags, next.targets)).toMatchObject([
        { type: 'entry', direction: 'SELL', tpR: 2, targets: null },
      ]);
    } finally {
      sb.close();
    }

    const vectorised = `
def signals(data, params):
    n = len(data)
    return {"entries": [i == n - 1 for i in range(n)], "sl": data.close[n - 1] - 0.002,
            "targets": {n - 1: [(1.5, 1)]}}
`;
    const vb = await startLiveSandbox(vectorised, '{}', { onDeath: () => {} });
    try {
      const r = await vb.step({ symbol: 'EURUSD', bars: waveBars(50), position: FLAT, balance: 1 });
      expect(decodeOrders(r.orders, r.tags, r.targets)).toMatchObject([
        { type: 'entry', direction: 'BUY', targets: [{ kind: 'r', value: 1.5, share: 1 }] },
      ]);
    } finally {
      vb.close();
    }
  });

  it('a strategy error fails the step with its traceback; a killed process is reported', async () => {
    const sb = await startLiveSandbox('def on_bar(ctx, bar):\n    return 1 / 0\n', '{}', {
      onDeath: () => {},
    });
    await expect(
      sb.step({ symbol: 'EURUSD', bars: waveBars(10), position: FLAT, balance: 1 }),
    ).rejects.toThrow(/ZeroDivisionError: division by zero/);
    sb.close();

    let died = '';
    const other = await startLiveSandbox('def on_bar(ctx, bar):\n    pass\n', '{}', {
      onDeath: (r) => (died = r),
    });
    process.kill(other.pid!, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    expect(died).toBe('The strategy process stopped unexpectedly (SIGKILL).');
    await expect(
      other.step({ symbol: 'EURUSD', bars: waveBars(10), position: FLAT, balance: 1 }),
    ).rejects.toThrow(/stopped unexpectedly/);
  });
});
