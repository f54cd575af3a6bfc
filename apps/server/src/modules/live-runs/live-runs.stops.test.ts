/**
 * A bot's stop entry (`stop=`) on the SIM account with a test clock, on SQLite (and PostgreSQL when
 * TEST_DATABASE_URL is set): the run arms it, keeps it across a server restart, sends it at the
 * market once the ask crosses it (one trade, even when a restart re-arms a stop already sent), and
 * drops it on ctx.close() or when the run ends.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { brokerRegistry } from '../../brokers/registry';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { FAST_LIVE_RUNS, liveKit } from '../../test/live-runs';
import { HOUR, MINUTE, WEDNESDAY } from '../../test/sim-clock';
import { newTrader, type Trader } from '../../test/traders';
import { waitFor } from '../../test/wait-for';

/** Arms a buy stop on the bar that opens at `arm_at`; ctx.close() on the bar at `close_at`. */
const STOP_STRATEGY = `
def on_bar(ctx, bar):
    if int(bar.time) == ctx.params["arm_at"]:
        ctx.buy(stop=ctx.params["stop"], sl_distance=0.002, tp_r=2, tag="breakout")
    elif int(bar.time) == ctx.params["close_at"]:
        ctx.close()
`;

let clock = WEDNESDAY + 2 * HOUR + 30_000;

describeEachDb('live runs: stop entries', (target) => {
  let h: Harness;
  const { post, version, start, run, logs, barDone } = liveKit(() => h);
  let n = 0;

  beforeAll(async () => {
    h = await createHarness(target, { simNow: () => clock, ...FAST_LIVE_RUNS });
  }, 60_000);
  afterAll(() => h.close());

  const quote = (t: number) => brokerRegistry(h.ctx).sim.market.quoteAt('EURUSD', t);
  const armedRow = async (id: string) =>
    (
      await h.ctx.db
        .selectFrom('live_runs')
        .select('armed_stops')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).armed_stops;

  /**
   * A run whose strategy arms a buy stop on the bar open now (and calls ctx.close() on the next bar
   * when `closeNextBar`): the stop lies above the asks at that
   * bar's close (`armed`) and a minute later (`before`), and `crossed` is the first later minute whose
   * ask reaches it (the sim is deterministic, so the test can pick it).
   */
  async function armedRun(closeNextBar = false) {
    clock = Math.floor(clock / HOUR) * HOUR + HOUR + 30_000;
    const t = await newTrader(h, `stops-${++n}`);
    const armAt = Math.floor(clock / MINUTE) * MINUTE;
    const armed = clock + MINUTE;
    const before = armed + MINUTE;
    const stop = Number((Math.max(quote(armed).ask, quote(before).ask) + 0.0001).toFixed(5));
    let crossed = before + MINUTE;
    while (quote(crossed).ask < stop) {
      crossed += MINUTE;
      if (crossed > armed + 24 * HOUR) throw new Error('the ask does not reach the stop');
    }
    const { versionId } = await version(t, STOP_STRATEGY, {
      arm_at: armAt,
      stop,
      close_at: closeNextBar ? armAt + MINUTE : -1,
    });
    const id = await start(t, versionId);
    clock = armed;
    await barDone(t, id, armAt);
    expect(await logs(t, id)).toContain(
      `Stop entry BUY EURUSD armed at ${stop} (breakout): sent at the market once the ask reaches it.`,
    );
    return { t, id, stop, armAt, before, crossed, described: `BUY EURUSD at ${stop} (breakout)` };
  }

  const countOf = async (t: Trader, id: string, text: string) =>
    (await logs(t, id)).filter((m) => m.includes(text)).length;

  it('an armed stop survives a restart and opens one trade once the ask crosses it, even when re-armed after it was sent', async () => {
    const r = await armedRun();
    clock = r.before;
    await barDone(r.t, r.id, r.armAt + MINUTE);
    expect((await run(r.t, r.id)).trades).toEqual([]);
    const stored = await armedRow(r.id);
    expect(JSON.parse(stored)).toHaveLength(1);

    h = await h.restart();
    await waitFor(
      async () => (await countOf(r.t, r.id, `Stop entry ${r.described} re-armed`)) === 1,
      'the resumed run to re-arm the stop',
      120_000,
    );
    expect((await run(r.t, r.id)).trades).toEqual([]);

    clock = r.crossed;
    const [trade] = await waitFor(
      async () => {
        const trades = (await run(r.t, r.id)).trades;
        return trades.length > 0 && trades;
      },
      'the stop to open a trade',
      60_000,
    );
    expect(trade).toMatchObject({ direction: 'BUY', status: 'open', reason: 'breakout' });
    // Sent at the market: filled at the ask, at or past the stop.
    expect(trade!.entry_price).toBeGreaterThanOrEqual(r.stop);
    expect(trade!.bar_time).toBe(new Date(r.armAt).toISOString());
    expect(await countOf(r.t, r.id, `Stop entry ${r.described} triggered (ask `)).toBe(1);
    // Dropped from the run's row right after the send (the trade can be seen a moment before).
    await waitFor(async () => (await armedRow(r.id)) === '[]', 'the sent stop to be dropped', 30_000);

    // As if the process died after the send but before the stop was dropped: the re-armed stop
    // triggers again and finds the trade already placed under its client order id.
    await h.ctx.db.updateTable('live_runs').set({ armed_stops: stored }).where('id', '=', r.id).execute();
    h = await h.restart();
    await waitFor(
      async () => (await countOf(r.t, r.id, `Stop entry ${r.described} triggered (ask `)) === 2,
      'the re-armed stop to trigger again',
      120_000,
    );
    await waitFor(async () => (await armedRow(r.id)) === '[]', 'the stop to be dropped', 30_000);
    const after = await run(r.t, r.id);
    expect(after.trades.map((x) => x.id)).toEqual([trade!.id]);
    const rows = await h.ctx.db
      .selectFrom('trades')
      .select('client_order_id')
      .where('account_id', '=', r.t.accountId)
      .execute();
    expect(rows).toHaveLength(1);
    const journals = await h.ctx.db
      .selectFrom('trade_journals')
      .select('trade_id')
      .where('user_id', '=', r.t.userId)
      .execute();
    expect(journals.map((j) => j.trade_id)).toEqual([trade!.id]);
    await post(r.t, `/api/bots/live-runs/${r.id}/stop/`, { close_positions: true });
  }, 600_000);

  it('ctx.close() cancels an armed stop: no trade opens when the ask crosses its price', async () => {
    const r = await armedRun(true);
    clock = r.before;
    await barDone(r.t, r.id, r.armAt + MINUTE);
    expect(await logs(r.t, r.id)).toContain(`Stop entry ${r.described} cancelled by ctx.close().`);
    expect(await armedRow(r.id)).toBe('[]');

    clock = r.crossed;
    await barDone(r.t, r.id, Math.floor(r.crossed / MINUTE) * MINUTE - MINUTE);
    // Several passes of the loop at a quote past the stop.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await run(r.t, r.id)).trades).toEqual([]);
    expect(await countOf(r.t, r.id, 'triggered')).toBe(0);
    await post(r.t, `/api/bots/live-runs/${r.id}/stop/`, {});
  }, 600_000);

  it('stopping the run cancels its armed stops', async () => {
    const r = await armedRun();
    const stopped = await post(r.t, `/api/bots/live-runs/${r.id}/stop/`, {});
    expect(stopped.json()).toMatchObject({ status: 'STOPPED' });
    expect(await logs(r.t, r.id)).toContain(`Stop entry ${r.described} cancelled: the run ended.`);
    expect(await armedRow(r.id)).toBe('[]');
    clock = r.crossed;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await run(r.t, r.id)).trades).toEqual([]);
  }, 600_000);
});
