/** Shared steps of the live-run integration tests: bots and versions through the API, and a fast clock. */
import { expect } from 'vitest';
import type { LiveRunDetail } from '@tradedesk/contract';
import type { AppConfig } from '../config';
import type { Harness } from './harness';
import type { Trader } from './traders';
import { waitFor } from './wait-for';

/** The run loop looks at the test clock every 20 ms; heartbeats and leases are short too. */
export const FAST_LIVE_RUNS: Partial<AppConfig> = {
  liveRuns: { pollMs: 20, heartbeatMs: 200, leaseMs: 3000, brokerDownMs: 2000, historyBars: 120 },
};

/** Buys when flat, closes when in a position: one trade opened or closed on every bar. */
export const FLIP_STRATEGY = `
def on_bar(ctx, bar):
    if ctx.position is None:
        ctx.buy(sl_distance=0.002, tp_r=2, tag="flip entry")
    else:
        ctx.close()
`;

/** Buys on every bar, whatever it holds: any replayed bar would show as a second trade. */
export const EVERY_BAR_STRATEGY = `
def on_bar(ctx, bar):
    ctx.buy(sl_distance=0.002, tp_r=2, tag="bar %d" % int(bar.time // 60000))
`;

export function liveKit(h: () => Harness) {
  const post = (t: Trader, url: string, body?: unknown) => h().request('POST', url, { token: t.token, body });
  const get = (t: Trader, url: string) => h().request('GET', url, { token: t.token });

  async function version(
    t: Trader,
    code: string,
    params: Record<string, unknown> = {},
    opts: { name?: string; accountId?: string; template?: string } = {},
  ) {
    const bot = await post(t, '/api/bots/bots/', {
      name: opts.name ?? 'Flipper',
      account_id: opts.accountId ?? t.accountId,
      strategy_template: opts.template ?? 'ema_crossover.py',
    });
    expect(bot.statusCode).toBe(201);
    const v = await post(t, '/api/bots/versions/', {
      bot_id: bot.json().id,
      strategy_file_content: code,
      params: { symbol: 'EURUSD', timeframe: 'M1', ...params },
    });
    expect(v.statusCode).toBe(201);
    return { botId: bot.json().id as string, versionId: v.json().id as string };
  }

  async function start(t: Trader, versionId: string, extra: Record<string, unknown> = {}) {
    const res = await post(t, '/api/bots/live-runs/start/', { bot_version_id: versionId, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    // A sandbox boots Pyodide: seconds alone, much longer on a loaded machine.
    await waitFor(async () => (await run(t, id)).status === 'RUNNING', 'the run to be RUNNING', 120_000);
    return id;
  }

  const run = async (t: Trader, id: string) =>
    (await get(t, `/api/bots/live-runs/${id}/`)).json() as LiveRunDetail;
  const logs = async (t: Trader, id: string) =>
    ((await get(t, `/api/bots/live-runs/${id}/logs/?limit=1000`)).json() as Array<{ message: string }>).map(
      (l) => l.message,
    );

  /** Waits until the run has dealt with the bar that opened at `barOpenMs`. */
  const barDone = (t: Trader, id: string, barOpenMs: number) =>
    waitFor(
      async () => (await run(t, id)).last_bar_at === new Date(barOpenMs).toISOString(),
      `bar ${new Date(barOpenMs).toISOString()} of run ${id}`,
      60_000,
    );

  return { post, get, version, start, run, logs, barDone };
}
