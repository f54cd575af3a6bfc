import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { decodePng } from '../../test/png';
import { WEDNESDAY } from '../../test/sim-clock';
import { newTrader, openEurusdTrade } from '../../test/traders';
import { waitFor } from '../../test/wait-for';

describeEachDb('chart snapshots: execute and tasks', (target) => {
  let h: Harness;
  let n = 0;
  beforeAll(async () => {
    h = await createHarness(target, { simNow: () => WEDNESDAY });
  });
  afterAll(() => h.close());

  /** A trader with one executed EURUSD trade, a journal entry on it and a template with every indicator (and the VWAP with two bands) on. */
  async function setUp(harness: Harness = h) {
    const t = await newTrader(harness, `snapper${++n}`);
    const tradeId = await openEurusdTrade(harness, t);
    const journal = await harness.request('POST', '/api/trade_journal/journals/', {
      token: t.token,
      body: { trade: tradeId, reason: 'Breakout retest' },
    });
    const config = await harness.request('POST', '/api/chart-snapshots/configs/', {
      token: t.token,
      body: {
        name: 'Everything',
        indicator_settings: {
          rsi: { enabled: true },
          macd: { enabled: true },
          cmf: { enabled: true },
          vwap: { enabled: true, overrides: { 'Band #1.visible': true, 'Band #2.visible': true } },
        },
      },
    });
    expect(config.statusCode).toBe(201);
    return {
      ...t,
      tradeId,
      journalId: journal.json().id as string,
      configId: config.json().id as string,
    };
  }

  it('executes a template into a 1600×900 PNG of the default account', async () => {
    const s = await setUp();
    const res = await h.request('POST', `/api/chart-snapshots/configs/${s.configId}/execute/`, {
      token: s.token,
      body: { symbol: 'EURUSD', timeframe: '1h' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const png = decodePng(res.rawPayload);
    expect([png.width, png.height]).toEqual([1600, 900]);
    const dark = await h.request('POST', `/api/chart-snapshots/configs/${s.configId}/execute/`, {
      token: s.token,
      body: { symbol: 'EURUSD', timeframe: '3m', theme: 'dark' },
    });
    expect(dark.statusCode).toBe(200);
    expect([...decodePng(dark.rawPayload).pixels.subarray(0, 3)]).toEqual([0x13, 0x17, 0x22]);

    const bad = await h.request('POST', `/api/chart-snapshots/configs/${s.configId}/execute/`, {
      token: s.token,
      body: { symbol: 'EURUSD', timeframe: '7m' },
    });
    expect(bad.statusCode).toBe(400);
    const unknown = await h.request('POST', `/api/chart-snapshots/configs/${s.configId}/execute/`, {
      token: s.token,
      body: { symbol: 'NOSUCH', timeframe: '1h' },
    });
    expect(unknown.statusCode).toBe(404);
    const other = await setUp();
    expect(
      (
        await h.request('POST', `/api/chart-snapshots/configs/${s.configId}/execute/`, {
          token: other.token,
          body: { symbol: 'EURUSD', timeframe: '1h' },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('answers a request at once with a task that attaches one PNG per timeframe to the journal', async () => {
    const s = await setUp();
    const res = await h.request('POST', '/api/chart-snapshots/request/', {
      token: s.token,
      body: {
        journal_entry_id: s.journalId,
        config_id: s.configId,
        symbol: 'eurusd',
        timeframes: ['5m', '1h', '1D'],
      },
    });
    expect(res.statusCode).toBe(202);
    const { task_id } = res.json();
    const url = `/api/chart-snapshots/tasks/${task_id}/`;
    const first = (await h.request('GET', url, { token: s.token })).json();
    expect(['PENDING', 'RUNNING', 'COMPLETED']).toContain(first.status);
    const done = await waitFor(
      async () => {
        const t = (await h.request('GET', url, { token: s.token })).json();
        return t.status === 'COMPLETED' || t.status === 'FAILED' ? t : null;
      },
      'the snapshot task',
      20_000,
    );
    expect(done).toMatchObject({
      status: 'COMPLETED',
      error: null,
      symbol: 'EURUSD',
      timeframes: ['5m', '1h', '1D'],
    });
    expect(done.attachments).toHaveLength(3);
    const journals = (
      await h.request('GET', `/api/trade_journal/journals/?trade=${s.tradeId}`, { token: s.token })
    ).json().results;
    expect(journals[0].attachments.map((a: { id: string }) => a.id)).toEqual(
      done.attachments.map((a: { id: string }) => a.id),
    );
    for (const a of done.attachments) {
      expect(a.content_type).toBe('image/png');
      const img = await h.request('GET', a.file);
      expect(img.statusCode).toBe(200);
      expect(decodePng(img.rawPayload).width).toBe(1600);
    }
    // Someone else's task does not exist for them.
    const other = await setUp();
    expect((await h.request('GET', url, { token: other.token })).statusCode).toBe(404);
  });

  it('refuses a bad request with the spec messages and 404s what is not the caller’s', async () => {
    const s = await setUp();
    const ask = (body: object, token = s.token) =>
      h.request('POST', '/api/chart-snapshots/request/', { token, body });
    const base = {
      journal_entry_id: s.journalId,
      config_id: s.configId,
      symbol: 'EURUSD',
      timeframes: ['1h'],
    };
    const noSymbol = await ask({ ...base, symbol: ' ' });
    expect(noSymbol.statusCode).toBe(400);
    expect(noSymbol.json().detail).toEqual({
      symbol: ['Symbol is required for automated snapshot when a configuration is selected.'],
    });
    const none = await ask({ ...base, timeframes: [] });
    expect(none.json().detail).toEqual({
      timeframes: ['At least one timeframe must be selected for automated snapshot.'],
    });
    const six = await ask({ ...base, timeframes: ['1m', '3m', '5m', '15m', '30m', '1h'] });
    expect(six.statusCode).toBe(400);
    expect(six.json().detail).toEqual({
      timeframes: ['No more than 5 timeframes can be selected for automated snapshot.'],
    });
    expect((await ask({ ...base, timeframes: ['2m'] })).statusCode).toBe(400);
    const other = await setUp();
    expect((await ask({ ...base, journal_entry_id: other.journalId })).statusCode).toBe(404);
    expect((await ask({ ...base, config_id: other.configId })).statusCode).toBe(404);
  });

  it('keeps task state across a restart and finishes a task a stopped process left half done', async () => {
    // A quick sweep, so that on PostgreSQL the job a stopped process left is re-sent at once.
    let r = await createHarness(target, {
      simNow: () => WEDNESDAY,
      jobs: { workers: 2, leaseMs: 3000, pollMs: 100, sweepMs: 300 },
    });
    const s = await setUp(r);
    const ask = await r.request('POST', '/api/chart-snapshots/request/', {
      token: s.token,
      body: {
        journal_entry_id: s.journalId,
        config_id: s.configId,
        symbol: 'EURUSD',
        timeframes: ['15m', '4h', '1D'],
      },
    });
    const taskId = ask.json().task_id as string;
    const url = `/api/chart-snapshots/tasks/${taskId}/`;
    const finished = await waitFor(
      async () => {
        const t = (await r.request('GET', url, { token: s.token })).json();
        return t.status === 'COMPLETED' ? t : null;
      },
      'the first run',
      20_000,
    );
    // As if the process had stopped after the first chart: the task RUNNING with one attachment made,
    // its job still running under a lease that nobody renews any more.
    await r.ctx.db
      .updateTable('snapshot_tasks')
      .set({ status: 'RUNNING', attachment_ids: JSON.stringify([finished.attachments[0].id]) })
      .where('id', '=', taskId)
      .execute();
    const job = await r.ctx.db
      .updateTable('jobs')
      .set({
        status: 'running',
        lease_owner: 'stopped-process',
        lease_until: new Date(0).toISOString(),
        finished_at: null,
        result: null,
      })
      .where('kind', '=', 'snapshots.render')
      .where('payload', 'like', `%${taskId}%`)
      .executeTakeFirst();
    expect(Number(job.numUpdatedRows)).toBe(1);
    r = await r.restart();
    const resumed = await waitFor(
      async () => {
        const t = (await r.request('GET', url, { token: s.token })).json();
        return t.status === 'COMPLETED' ? t : null;
      },
      'the resumed task',
      20_000,
    );
    expect(resumed.attachments).toHaveLength(3);
    // The first chart was kept, not drawn again; the other two are new.
    expect(resumed.attachments[0].id).toBe(finished.attachments[0].id);
    const journals = (
      await r.request('GET', `/api/trade_journal/journals/?trade=${s.tradeId}`, { token: s.token })
    ).json().results;
    expect(journals[0].attachments).toHaveLength(5);
    // A finished task reads the same after another restart.
    r = await r.restart();
    const again = (await r.request('GET', url, { token: s.token })).json();
    expect(again).toMatchObject({
      status: 'COMPLETED',
      attachments: resumed.attachments.map((a: { id: string }) => ({ id: a.id })),
    });
    await r.close();
  }, 90_000);
});
