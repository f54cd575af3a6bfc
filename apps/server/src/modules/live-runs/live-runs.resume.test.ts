/**
 * Live runs across failures, on SQLite (and PostgreSQL when TEST_DATABASE_URL is set): a restart
 * resumes RUNNING runs after reconciling, without a duplicate order even for a bar replayed; a
 * strategy error or a killed sandbox fails the run cleanly with the reason.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { EVERY_BAR_STRATEGY, FAST_LIVE_RUNS, FLIP_STRATEGY, liveKit } from '../../test/live-runs';
import { HOUR, MINUTE, WEDNESDAY } from '../../test/sim-clock';
import { newTrader, type Trader } from '../../test/traders';
import { waitFor } from '../../test/wait-for';
import { liveRunManager } from './live-run-manager';

let clock = WEDNESDAY;

describeEachDb('live runs: restart and crashes', (target) => {
  let h: Harness;
  const { get, version, start, run, logs, barDone } = liveKit(() => h);
  let n = 0;
  const nextHour = () => (clock = Math.floor(clock / HOUR) * HOUR + HOUR + 30_000);
  const barOpen = () => Math.floor(clock / MINUTE) * MINUTE - MINUTE;
  async function step(t: Trader, id: string) {
    clock += MINUTE;
    await barDone(t, id, barOpen());
  }
  const failed = (t: Trader, id: string) =>
    waitFor(
      async () => {
        const r = await run(t, id);
        return r.status === 'FAILED' && r;
      },
      `run ${id} to fail`,
      60_000,
    );

  beforeAll(async () => {
    h = await createHarness(target, { simNow: () => clock, ...FAST_LIVE_RUNS });
  }, 60_000);
  afterAll(() => h.close());

  it('a restart resumes the run after reconciling; a replayed bar places no second order', async () => {
    nextHour();
    const t = await newTrader(h, `resume-${++n}`);
    const { versionId, botId } = await version(t, EVERY_BAR_STRATEGY);
    const id = await start(t, versionId);
    await step(t, id);
    const first = await run(t, id);
    expect(first.trades).toHaveLength(1);

    // As if the process died after the order left but before the bar was recorded as done.
    await h.ctx.db
      .updateTable('live_runs')
      .set({ cursor: JSON.stringify({ EURUSD: barOpen() - MINUTE }) })
      .where('id', '=', id)
      .execute();
    h = await h.restart();
    await waitFor(
      async () => (await logs(t, id)).some((m) => m.startsWith('Reconciled: 1 open position(s)')),
      'the resumed run to reconcile',
      120_000,
    );
    await barDone(t, id, barOpen());
    const replayed = await run(t, id);
    expect(replayed.status).toBe('RUNNING');
    expect(replayed.trades.map((x) => x.id)).toEqual(first.trades.map((x) => x.id));
    expect((await get(t, `/api/bots/bots/${botId}/`)).json().is_active).toBe(true);

    await step(t, id);
    const after = await run(t, id);
    expect(after.trades).toHaveLength(2);
    const rows = await h.ctx.db
      .selectFrom('trades')
      .select('client_order_id')
      .where('account_id', '=', t.accountId)
      .execute();
    expect(new Set(rows.map((r) => r.client_order_id)).size).toBe(2);
    const journals = await h.ctx.db
      .selectFrom('trade_journals')
      .select('trade_id')
      .where('user_id', '=', t.userId)
      .execute();
    expect(journals.map((j) => j.trade_id).sort()).toEqual(after.trades.map((x) => x.id).sort());
    await h.request('POST', `/api/bots/live-runs/${id}/stop/`, { token: t.token, body: {} });
  }, 300_000);

  it('a strategy error fails the run with its traceback and frees the slot', async () => {
    nextHour();
    const t = await newTrader(h, `crash-${++n}`);
    const { versionId, botId } = await version(t, 'def on_bar(ctx, bar):\n    return 1 / 0\n');
    const id = await start(t, versionId);
    clock += MINUTE;
    const r = await failed(t, id);
    expect(r.error_message).toMatch(/ZeroDivisionError: division by zero/);
    expect(r.stopped_at).not.toBeNull();
    expect((await get(t, `/api/bots/bots/${botId}/`)).json().is_active).toBe(false);
    expect((await logs(t, id)).at(-1)).toMatch(/^Failed: .*ZeroDivisionError/s);
    const again = await h.request('POST', '/api/bots/live-runs/start/', {
      token: t.token,
      body: { bot_version_id: versionId },
    });
    expect(again.statusCode).toBe(201);
    await h.request('POST', `/api/bots/live-runs/${again.json().id}/stop/`, { token: t.token, body: {} });
  }, 300_000);

  it('a sandbox process that dies fails the run and says so', async () => {
    nextHour();
    const t = await newTrader(h, `kill-${++n}`);
    const { versionId } = await version(t, FLIP_STRATEGY);
    const id = await start(t, versionId);
    const pid = liveRunManager(h.ctx).sandboxPid(id);
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    const r = await failed(t, id);
    expect(r.error_message).toBe('The strategy process stopped unexpectedly (SIGKILL).');
    clock += MINUTE;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await run(t, id)).orders).toBe(0);
  }, 300_000);
});
