/** The bots API end to end through the real app, on SQLite (and PostgreSQL when TEST_DATABASE_URL is set). */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { newTrader, type Trader } from '../../test/traders';
import { DAY, WEDNESDAY } from '../../test/sim-clock';
import { waitFor } from '../../test/wait-for';

describeEachDb('bots API', (target) => {
  let h: Harness;
  let alice: Trader;
  let bob: Trader;
  beforeAll(async () => {
    h = await createHarness(target, { simNow: () => WEDNESDAY });
    alice = await newTrader(h, 'alice-bots');
    bob = await newTrader(h, 'bob-bots');
  }, 60_000);
  afterAll(() => h.close());

  const post = (t: Trader, url: string, body: unknown) => h.request('POST', url, { token: t.token, body });
  const get = (t: Trader, url: string) => h.request('GET', url, { token: t.token });

  async function setup(t: Trader, template = 'ema_crossover.py') {
    const templates = (await get(t, '/api/bots/strategy-templates/')).json() as Array<{
      filename: string;
      content: string;
      default_params: object;
    }>;
    const tpl = templates.find((x) => x.filename === template)!;
    const bot = (
      await post(t, '/api/bots/bots/', {
        name: 'Trend',
        account_id: t.accountId,
        strategy_template: template,
      })
    ).json();
    const version = (
      await post(t, '/api/bots/versions/', {
        bot_id: bot.id,
        strategy_file_content: tpl.content,
        params: tpl.default_params,
        notes: 'first',
      })
    ).json();
    const config = (
      await post(t, '/api/bots/backtest-configs/', {
        bot_version: version.id,
        label: 'H1 default',
        risk_json: {},
        slippage_ms: 0,
        slippage_r: 0,
      })
    ).json();
    return { bot, version, config, tpl };
  }

  it('creates, lists, reads and deletes bots; validates the form', async () => {
    const missing = await post(alice, '/api/bots/bots/', { name: '' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().detail).toEqual({
      name: ['This field is required.'],
      account_id: ['This field is required.'],
      strategy_template: ['This field is required.'],
    });
    const foreignAccount = await post(alice, '/api/bots/bots/', {
      name: 'x',
      account_id: bob.accountId,
      strategy_template: 'ema_crossover.py',
    });
    expect(foreignAccount.statusCode).toBe(404);
    const badTemplate = await post(alice, '/api/bots/bots/', {
      name: 'x',
      account_id: alice.accountId,
      strategy_template: 'nope.py',
    });
    expect(badTemplate.json().detail).toEqual({ strategy_template: ['Unknown strategy template.'] });

    const created = await post(alice, '/api/bots/bots/', {
      name: 'Mine',
      account_id: alice.accountId,
      strategy_template: 'donchian_breakout.py',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Mine', account_id: alice.accountId, is_active: false });
    const id = created.json().id as string;
    expect((await get(alice, '/api/bots/bots/')).json().map((b: { id: string }) => b.id)).toContain(id);
    expect((await get(alice, `/api/bots/bots/${id}/`)).json().strategy_template).toBe('donchian_breakout.py');
    expect((await get(bob, `/api/bots/bots/${id}/`)).statusCode).toBe(404);
    expect((await h.request('DELETE', `/api/bots/bots/${id}/`, { token: bob.token })).statusCode).toBe(404);
    expect((await h.request('DELETE', `/api/bots/bots/${id}/`, { token: alice.token })).statusCode).toBe(204);
    expect((await get(alice, `/api/bots/bots/${id}/`)).statusCode).toBe(404);
  });

  it('lists the five templates with content and default params', async () => {
    const res = await get(alice, '/api/bots/strategy-templates/');
    expect(res.json()).toHaveLength(5);
    expect(res.json()[0]).toMatchObject({ filename: 'ema_crossover.py', display_name: 'EMA crossover' });
  });

  it('keeps immutable versions with the SHA-256 of the code; rejects invalid params JSON', async () => {
    const { bot, version, tpl } = await setup(alice);
    expect(version.code_hash).toBe(createHash('sha256').update(tpl.content).digest('hex'));
    expect(version).toMatchObject({
      bot: bot.id,
      bot_id: bot.id,
      params: tpl.default_params,
      notes: 'first',
    });
    const bad = await post(alice, '/api/bots/versions/', {
      bot_id: bot.id,
      strategy_file_content: 'x = 1',
      params: '{oops',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toBe('Invalid JSON in Parameters field. Please correct it.');
    const text = await post(alice, '/api/bots/versions/', {
      bot_id: bot.id,
      strategy_file_content: 'x = 1',
      params: '{"a": 1}',
    });
    expect(text.json().params).toEqual({ a: 1 });
    expect((await get(alice, `/api/bots/versions/?bot_id=${bot.id}`)).json()).toHaveLength(2);
    expect((await get(bob, `/api/bots/versions/?bot_id=${bot.id}`)).statusCode).toBe(404);
    expect((await get(bob, `/api/bots/versions/${version.id}/`)).statusCode).toBe(404);
    expect(
      (await post(bob, '/api/bots/versions/', { bot_id: bot.id, strategy_file_content: 'x', params: {} }))
        .statusCode,
    ).toBe(404);
    expect(
      (await h.request('DELETE', `/api/bots/versions/${text.json().id}/`, { token: alice.token })).statusCode,
    ).toBe(204);
  });

  it('validates backtest configs: {} takes the defaults, invalid JSON and schema errors are 400, others are 404', async () => {
    const { version, config } = await setup(alice);
    expect(config).toMatchObject({
      bot_version: version.id,
      label: 'H1 default',
      risk_json: {},
      slippage_ms: 0,
      slippage_r: 0,
    });
    const base = { bot_version: version.id, label: 'x', slippage_ms: 5, slippage_r: 0.1 };
    const invalid = await post(alice, '/api/bots/backtest-configs/', { ...base, risk_json: '{nope' });
    expect(invalid.json().detail).toBe('Invalid JSON in Risk JSON field. Please correct it.');
    const schema = await post(alice, '/api/bots/backtest-configs/', {
      ...base,
      risk_json: { timeframe: 'H2', leverage: -1 },
    });
    expect(schema.statusCode).toBe(400);
    expect(Object.keys(schema.json().detail)).toEqual(['risk_json']);
    const unknown = await post(alice, '/api/bots/backtest-configs/', {
      ...base,
      risk_json: { colour: 'red' },
    });
    expect(unknown.statusCode).toBe(400);
    const noInt = await post(alice, '/api/bots/backtest-configs/', {
      ...base,
      risk_json: {},
      slippage_ms: 1.5,
    });
    expect(noInt.json().detail).toEqual({ slippage_ms: ['A valid non-negative integer is required.'] });
    const put = await h.request('PUT', `/api/bots/backtest-configs/${config.id}/`, {
      token: alice.token,
      body: {
        label: 'Edited',
        risk_json: '{"symbol": "EURUSD", "timeframe": "M15"}',
        slippage_ms: '20',
        slippage_r: '0.05',
      },
    });
    expect(put.json()).toMatchObject({
      label: 'Edited',
      risk_json: { symbol: 'EURUSD', timeframe: 'M15' },
      slippage_ms: 20,
      slippage_r: 0.05,
    });
    expect(
      (await get(alice, `/api/bots/backtest-configs/?bot_version_id=${version.id}`)).json(),
    ).toHaveLength(1);
    expect((await get(bob, `/api/bots/backtest-configs/${config.id}/`)).statusCode).toBe(404);
    expect(
      (
        await h.request('PUT', `/api/bots/backtest-configs/${config.id}/`, {
          token: bob.token,
          body: { label: 'x', risk_json: {}, slippage_ms: 0, slippage_r: 0 },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('refuses a launch without dates with the spec text', async () => {
    const { version, config } = await setup(alice);
    const res = await post(alice, '/api/bots/backtests/launch/', {
      bot_version_id: version.id,
      backtest_config_id: config.id,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('Start and End dates are required.');
    const foreign = await post(bob, '/api/bots/backtests/launch/', {
      bot_version_id: version.id,
      backtest_config_id: config.id,
      data_window_start: '2025-12-01',
      data_window_end: '2025-12-20',
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('backtests a template end to end on SIM data, byte-identical on a second run', async () => {
    const { version, config } = await setup(alice);
    const window = {
      bot_version_id: version.id,
      backtest_config_id: config.id,
      data_window_start: new Date(WEDNESDAY - 60 * DAY).toISOString(),
      data_window_end: new Date(WEDNESDAY - DAY).toISOString(),
    };
    const launched = await post(alice, '/api/bots/backtests/launch/', window);
    expect(launched.statusCode).toBe(201);
    expect(launched.json()).toMatchObject({
      status: 'PENDING',
      bot_version: version.id,
      backtest_config_details: { label: 'H1 default' },
    });
    const again = (await post(alice, '/api/bots/backtests/launch/', window)).json();
    const done = async (id: string) =>
      waitFor(
        async () => {
          const r = (await get(alice, `/api/bots/backtest-runs/${id}/`)).json();
          return r.status === 'COMPLETED' || r.status === 'FAILED' ? r : null;
        },
        'the backtest to finish',
        180_000,
      );
    const first = await done(launched.json().id);
    expect(first.error_message).toBeNull();
    expect(first.status).toBe('COMPLETED');
    expect(first.progress).toBe(1);
    expect(first.stats.trades).toBe(first.trades.length);
    expect(first.trades.length).toBeGreaterThan(0);
    expect(first.equity_curve.length).toBeGreaterThan(100);
    expect(first.timings.bars).toBeGreaterThan(900);
    const second = await done(again.id);
    expect(JSON.stringify(second.stats)).toBe(JSON.stringify(first.stats));
    expect(JSON.stringify(second.trades)).toBe(JSON.stringify(first.trades));
    expect((await get(alice, `/api/bots/backtest-runs/?bot_version_id=${version.id}`)).json()).toHaveLength(
      2,
    );
    expect((await get(bob, `/api/bots/backtest-runs/${first.id}/`)).statusCode).toBe(404);
  }, 400_000);

  it('backtests the Donchian template (two targets): an entry closed in parts is one trade listing its parts', async () => {
    const { version, config } = await setup(alice, 'donchian_breakout.py');
    const launched = await post(alice, '/api/bots/backtests/launch/', {
      bot_version_id: version.id,
      backtest_config_id: config.id,
      data_window_start: new Date(WEDNESDAY - 60 * DAY).toISOString(),
      data_window_end: new Date(WEDNESDAY - DAY).toISOString(),
    });
    const run = await waitFor(
      async () => {
        const r = (await get(alice, `/api/bots/backtest-runs/${launched.json().id}/`)).json();
        return r.status === 'COMPLETED' || r.status === 'FAILED' ? r : null;
      },
      'the backtest to finish',
      180_000,
    );
    expect(run.error_message).toBeNull();
    type Part = { exit_time: string; volume: number; pnl: number; commission: number; exit_reason: string };
    const trades = run.trades as Array<{ volume: number; pnl: number; exit_time: string; parts?: Part[] }>;
    expect(run.stats.trades).toBe(trades.length);
    const split = trades.filter((t) => t.parts);
    expect(split.length).toBeGreaterThan(0);
    for (const t of split) {
      // The first half at half-way to the target (a take profit), then the rest.
      expect(t.parts![0]!.exit_reason).toBe('tp');
      expect(t.parts!.reduce((a, p) => a + p.pnl, 0)).toBeCloseTo(t.pnl, 2);
      expect(t.parts!.reduce((a, p) => a + p.volume, 0)).toBeCloseTo(t.volume, 8);
      expect(t.parts!.at(-1)!.exit_time).toBe(t.exit_time);
    }
  }, 400_000);

  it('fails a run whose strategy raises, with the Python traceback line in error_message', async () => {
    const { bot } = await setup(alice);
    const code = 'def signals(data, params):\n    raise RuntimeError("no edge today")\n';
    const version = (
      await post(alice, '/api/bots/versions/', { bot_id: bot.id, strategy_file_content: code, params: {} })
    ).json();
    const config = (
      await post(alice, '/api/bots/backtest-configs/', {
        bot_version: version.id,
        label: 'c',
        risk_json: {},
        slippage_ms: 0,
        slippage_r: 0,
      })
    ).json();
    const run = (
      await post(alice, '/api/bots/backtests/launch/', {
        bot_version_id: version.id,
        backtest_config_id: config.id,
        data_window_start: new Date(WEDNESDAY - 10 * DAY).toISOString(),
        data_window_end: new Date(WEDNESDAY - DAY).toISOString(),
      })
    ).json();
    const failed = await waitFor(
      async () => {
        const r = (await get(alice, `/api/bots/backtest-runs/${run.id}/`)).json();
        return r.status === 'FAILED' ? r : null;
      },
      'the run to fail',
      300_000,
    );
    expect(failed.error_message).toContain('File "<strategy>", line 2, in signals');
    expect(failed.error_message).toContain('RuntimeError: no edge today');
  }, 400_000);
});
