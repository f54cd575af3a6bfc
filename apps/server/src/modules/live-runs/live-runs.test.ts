/**
 * Bot live runs through the real app on the SIM account with a test clock, on SQLite (and PostgreSQL
 * when TEST_DATABASE_URL is set): a template strategy trading, risk refusals, stop, kill switch,
 * ownership, real-account confirmation and the log socket.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LIVE_RUN_MESSAGES, WS_CLOSE } from '@tradedesk/contract';
import { findTemplate } from '../bots/templates';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { FAST_LIVE_RUNS, FLIP_STRATEGY, liveKit } from '../../test/live-runs';
import { HOUR, MINUTE, WEDNESDAY } from '../../test/sim-clock';
import { newTrader, setRiskRules, type Trader } from '../../test/traders';
import { waitFor } from '../../test/wait-for';

let clock = WEDNESDAY;

describeEachDb('live runs', (target) => {
  let h: Harness;
  const kit = liveKit(() => h);
  const { post, get, version, start, run, logs, barDone } = kit;
  let n = 0;
  const trader = () => newTrader(h, `live-${++n}`);
  /** The clock moves to the middle of a minute in a later hour, so each test has fresh bars. */
  const nextHour = () => (clock = Math.floor(clock / HOUR) * HOUR + HOUR + 30_000);
  /** One M1 bar closes; waits until the run has dealt with it. */
  async function step(t: Trader, id: string) {
    clock += MINUTE;
    await barDone(t, id, Math.floor(clock / MINUTE) * MINUTE - MINUTE);
  }
  const stop = (t: Trader, id: string, body: unknown = {}) =>
    post(t, `/api/bots/live-runs/${id}/stop/`, body);

  beforeAll(async () => {
    h = await createHarness(target, { simNow: () => clock, ...FAST_LIVE_RUNS });
  }, 60_000);
  afterAll(() => h.close());

  it('a template strategy places and closes trades that appear in history with journals', async () => {
    nextHour();
    const t = await trader();
    const tpl = findTemplate('ema_crossover.py')!;
    const { botId, versionId } = await version(
      t,
      tpl.content,
      { fast: 2, slow: 3, atr: 3, atr_mult: 2, target_r: 2 },
      { name: 'Trend' },
    );
    const id = await start(t, versionId);
    expect((await get(t, `/api/bots/bots/${botId}/`)).json().is_active).toBe(true);
    for (let i = 0; i < 120; i++) {
      await step(t, id);
      const r = await run(t, id);
      if (r.trades.some((x) => x.status === 'closed') && r.trades.length >= 2) break;
    }
    const r = await run(t, id);
    expect(r).toMatchObject({
      status: 'RUNNING',
      account_id: t.accountId,
      symbols: ['EURUSD'],
      timeframe: 'M1',
    });
    expect(r.last_heartbeat).not.toBeNull();
    const closed = r.trades.filter((x) => x.status === 'closed');
    expect(closed.length).toBeGreaterThan(0);
    expect(r.orders).toBe(r.trades.length);
    expect(r.realised_pl).toBeCloseTo(
      closed.reduce((s, x) => s + x.profit_loss!, 0),
      2,
    );

    const history = (await get(t, `/api/history/accounts/${t.accountId}/trades/`)).json();
    const ids = history.results.map((x: { id: string }) => x.id);
    for (const x of closed) expect(ids).toContain(x.id);
    const journals = (await get(t, `/api/trade_journal/journals/?trade=${closed[0]!.id}`)).json().results;
    expect(journals).toHaveLength(1);
    expect(journals[0]).toMatchObject({
      action: 'Opened Position',
      strategy_tag: 'Trend v1',
      trade_timeframe: '1M',
      reason: `Trend v1: ${closed[0]!.direction === 'BUY' ? 'buy' : 'sell'} signal`,
    });
    expect(closed[0]!.reason).toBe(journals[0].reason);
    expect((await logs(t, id)).some((m) => /^Order (BUY|SELL) EURUSD sent: /.test(m))).toBe(true);

    // The dashboard marks the run's open positions as a bot's.
    const marks = (await get(t, `/api/bots/live-runs/positions/?account_id=${t.accountId}`)).json();
    expect(marks).toEqual(
      r.trades
        .filter((x) => x.status === 'open')
        .map((x) => ({ trade_id: x.id, live_run_id: id, bot_name: 'Trend' })),
    );

    expect((await stop(t, id)).json()).toMatchObject({
      status: 'STOPPED',
      stop_reason: 'Stopped by the user.',
    });
    expect((await get(t, `/api/bots/bots/${botId}/`)).json().is_active).toBe(false);
    const list = (await get(t, `/api/bots/live-runs/?bot_version_id=${versionId}`)).json();
    expect(list.map((x: { id: string; status: string }) => [x.id, x.status])).toEqual([[id, 'STOPPED']]);
  }, 300_000);

  it("logs and counts the orders the account's risk rules refuse; places none", async () => {
    nextHour();
    const t = await trader();
    await setRiskRules(h, t, { max_trade_risk: 0.1 });
    const { versionId } = await version(t, FLIP_STRATEGY);
    const id = await start(t, versionId);
    await step(t, id);
    const r = await run(t, id);
    expect(r).toMatchObject({ orders: 0, refused_orders: 1, trades: [] });
    expect((await logs(t, id)).find((m) => m.startsWith('Order BUY EURUSD (flip entry) refused: '))).toMatch(
      /max_trade_risk/,
    );
    await stop(t, id);
  }, 300_000);

  it("stops itself when the account's daily-loss rule refuses an order, and says why", async () => {
    nextHour();
    const t = await trader();
    // The rule counts this order's risk (0.5 %) against a 0.1 % daily limit: the first order is refused.
    await setRiskRules(h, t, { max_daily_loss: 0.1 });
    const { botId, versionId } = await version(t, FLIP_STRATEGY);
    const id = await start(t, versionId);
    await step(t, id);
    const r = await waitFor(
      async () => {
        const x = await run(t, id);
        return x.status === 'STOPPED' && x;
      },
      'the run to stop itself',
      30_000,
    );
    expect(r).toMatchObject({ orders: 0, refused_orders: 1, trades: [] });
    expect(r.stop_reason).toMatch(/^The account's daily-loss rule was hit: max_daily_loss: /);
    expect((await get(t, `/api/bots/bots/${botId}/`)).json().is_active).toBe(false);
  }, 300_000);

  it('stops within one second, closing its positions when asked; no order after the stop', async () => {
    nextHour();
    const t = await trader();
    const { versionId } = await version(t, FLIP_STRATEGY);
    const id = await start(t, versionId);
    await step(t, id);
    const before = await run(t, id);
    expect(before.open_positions).toHaveLength(1);
    expect(before.profit_loss).toBeCloseTo(before.open_pl!, 2);

    // A bar closes as the stop is asked: whatever the runner was doing, no order of the run may be
    // placed later than one second after the stop (the stop itself also closes the position).
    clock += MINUTE;
    const asked = Date.now();
    const stopped = await stop(t, id, { close_positions: true });
    for (const x of stopped.json().trades as Array<{ created_at: string }>)
      expect(Date.parse(x.created_at)).toBeLessThan(asked + 1000);
    expect(stopped.json()).toMatchObject({
      status: 'STOPPED',
      stop_reason: 'Stopped by the user; positions closed.',
      open_positions: [],
    });
    const placed = stopped.json().trades as Array<{ status: string }>;
    expect(placed.every((x) => x.status === 'closed')).toBe(true);
    clock += 3 * MINUTE;
    await new Promise((r) => setTimeout(r, 300));
    const after = await run(t, id);
    expect(after.trades).toHaveLength(placed.length);
    expect(after.orders).toBe(placed.length);
    expect((await stop(t, id)).json().status).toBe('STOPPED');
  }, 300_000);

  it('the kill switch stops every run of the user and no other', async () => {
    nextHour();
    const t = await trader();
    const other = await trader();
    const a = await version(t, FLIP_STRATEGY, {}, { name: 'A' });
    const b = await version(t, FLIP_STRATEGY, {}, { name: 'B' });
    const c = await version(other, FLIP_STRATEGY, {}, { name: 'C' });
    // One after another: each sandbox boots faster alone on a busy machine.
    const ids = [await start(t, a.versionId), await start(t, b.versionId)];
    const others = await start(other, c.versionId);
    const res = await post(t, '/api/bots/live-runs/stop-all/');
    expect(res.json()).toEqual({ stopped: 2 });
    for (const id of ids)
      expect(await run(t, id)).toMatchObject({
        status: 'STOPPED',
        stop_reason: 'Stopped by the kill switch.',
      });
    expect((await get(t, `/api/bots/bots/${a.botId}/`)).json().is_active).toBe(false);
    expect((await run(other, others)).status).toBe('RUNNING');
    await stop(other, others);
  }, 300_000);

  it("one run per version and account; checks the request; another user's run is 404", async () => {
    nextHour();
    const t = await trader();
    const bob = await trader();
    const { versionId } = await version(t, FLIP_STRATEGY);
    const id = await start(t, versionId);
    const again = await post(t, '/api/bots/live-runs/start/', { bot_version_id: versionId });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(LIVE_RUN_MESSAGES.alreadyRunning);
    expect((await post(t, '/api/bots/live-runs/start/', {})).statusCode).toBe(400);
    expect((await post(bob, '/api/bots/live-runs/start/', { bot_version_id: versionId })).statusCode).toBe(
      404,
    );
    const weekly = await version(t, FLIP_STRATEGY, { timeframe: 'W1' });
    const bad = await post(t, '/api/bots/live-runs/start/', { bot_version_id: weekly.versionId });
    expect(bad.json()).toEqual({ detail: LIVE_RUN_MESSAGES.timeframe });
    const unknown = await post(t, '/api/bots/live-runs/start/', {
      bot_version_id: weekly.versionId,
      timeframe: 'M5',
      symbols: ['NOPE'],
    });
    expect(unknown.statusCode).toBe(404);

    for (const url of [`/api/bots/live-runs/${id}/`, `/api/bots/live-runs/${id}/logs/`])
      expect((await get(bob, url)).statusCode).toBe(404);
    expect((await stop(bob, id)).statusCode).toBe(404);
    expect((await get(bob, '/api/bots/live-runs/')).json()).toEqual([]);
    expect((await run(t, id)).status).toBe('RUNNING');
    await stop(t, id);
    // Stopped, the slot is free again.
    const next = await start(t, versionId);
    await stop(t, next);
  }, 300_000);

  it('starting on a real (MT5) account needs confirm_real_account', async () => {
    const t = await trader();
    const created = await post(t, '/api/accounts/create/', {
      name: 'Live',
      platform: 'MT5',
      account_number: '123',
      password: 'pw',
      broker_server: 'Demo-1',
    });
    const { versionId } = await version(t, FLIP_STRATEGY, {}, { accountId: created.json().id });
    const refused = await post(t, '/api/bots/live-runs/start/', { bot_version_id: versionId });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail).toBe(LIVE_RUN_MESSAGES.confirmRealAccount);
    // Confirmed, it goes on to the broker, which is down here (no bridge): 502 and no run.
    const confirmed = await post(t, '/api/bots/live-runs/start/', {
      bot_version_id: versionId,
      confirm_real_account: true,
    });
    expect(confirmed.statusCode).toBe(502);
    expect((await get(t, '/api/bots/live-runs/')).json()).toEqual([]);
  }, 300_000);

  it('the log socket sends the last lines, then new ones as they come; others are refused', async () => {
    nextHour();
    const t = await trader();
    const bob = await trader();
    const { versionId } = await version(t, FLIP_STRATEGY);
    const id = await start(t, versionId);
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const address = h.app.server.address();
    const base = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/ws/live-runs/${id}`;
    const refused = new WebSocket(`${base}?token=${bob.token}`);
    const refusedCode = await new Promise<number>((r) => refused.on('close', (code) => r(code)));
    expect(refusedCode).toBe(WS_CLOSE.notFound);
    const anonymous = new WebSocket(`${base}?token=nope`);
    expect(await new Promise<number>((r) => anonymous.on('close', (code) => r(code)))).toBe(
      WS_CLOSE.unauthorized,
    );

    const ws = new WebSocket(base);
    const messages: Array<{ type: string; line?: { seq: number; message: string }; status?: string }> = [];
    ws.on('message', (d) => messages.push(JSON.parse(String(d))));
    await new Promise((r) => ws.on('open', r));
    ws.send(JSON.stringify({ token: t.token }));
    await waitFor(
      () => messages.some((m) => m.line?.message.startsWith('Strategy loaded')),
      'the backlog',
      30_000,
    );
    expect(messages[0]).toEqual({ type: 'status', status: 'RUNNING' });
    await step(t, id);
    await waitFor(
      () => messages.some((m) => m.line?.message.startsWith('Order BUY EURUSD')),
      'a new line',
      30_000,
    );
    await stop(t, id);
    await waitFor(() => messages.some((m) => m.status === 'STOPPED'), 'the status change', 30_000);
    const seqs = messages.filter((m) => m.line).map((m) => m.line!.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(new Set(seqs).size).toBe(seqs.length);
    ws.close();
  }, 300_000);
});
