import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';

describeEachDb('chart snapshot templates', (target) => {
  let h: Harness;
  let n = 0;
  beforeAll(async () => {
    h = await createHarness(target);
  });
  afterAll(() => h.close());

  const newUser = () => h.user(`templater${++n}`);
  const create = (token: string, body: unknown) =>
    h.request('POST', '/api/chart-snapshots/configs/', { token, body });

  it('takes the spec defaults for an empty indicator_settings and round-trips a template', async () => {
    const u = await newUser();
    const res = await create(u.token, { name: 'x', is_global: false, indicator_settings: {} });
    expect(res.statusCode).toBe(201);
    const t = res.json();
    expect(t).toMatchObject({ name: 'x', is_global: false, user: u.id });
    const s = t.indicator_settings;
    expect(s.emas).toMatchObject({ enabled: true, periods: [21, 50, 100], source: 'close' });
    expect(s.emas.overrides).toHaveLength(3);
    expect(s.emas.overrides[0]['Plot.color']).toMatch(/^rgb\(/);
    expect(s.dmi).toMatchObject({ enabled: true, di_length: 14, adx_smoothing: 14 });
    expect(s.dmi.overrides).toMatchObject({ '+DI.visible': true, '-DI.visible': true, 'ADX.visible': true });
    expect(s.stoch_rsi).toMatchObject({
      enabled: true,
      rsi_length: 14,
      stoch_length: 14,
      k_smooth: 3,
      d_smooth: 3,
    });
    expect(s.stoch_rsi.overrides).toMatchObject({ 'UpperLimit.value': 80, 'LowerLimit.value': 20 });
    expect(s.rsi).toMatchObject({ enabled: false, length: 14, smoothingLine: 'SMA', smoothingLength: 14 });
    expect(s.rsi.overrides).toMatchObject({
      'UpperLimit.value': 70,
      'LowerLimit.value': 30,
      'MiddleLimit.value': 50,
      'MiddleLimit.visible': false,
    });
    expect(s.macd).toMatchObject({
      enabled: false,
      fast_length: 12,
      slow_length: 26,
      signal_length: 9,
      source: 'close',
    });
    expect(s.cmf).toMatchObject({ enabled: false, length: 20 });

    const got = await h.request('GET', `/api/chart-snapshots/configs/${t.id}/`, { token: u.token });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(t);

    // Adding an EMA period keeps the overrides in step; an emptied number is kept as null.
    const put = await h.request('PUT', `/api/chart-snapshots/configs/${t.id}/`, {
      token: u.token,
      body: {
        name: ' renamed ',
        is_global: true,
        indicator_settings: {
          emas: { periods: [21, 50, 100, 200], overrides: s.emas.overrides },
          rsi: { enabled: true, length: null, overrides: { 'Plot.color': 'rgb(1, 2, 3)' } },
        },
      },
    });
    expect(put.statusCode).toBe(200);
    const updated = put.json();
    expect(updated).toMatchObject({ name: 'renamed', is_global: true });
    expect(updated.indicator_settings.emas.periods).toEqual([21, 50, 100, 200]);
    expect(updated.indicator_settings.emas.overrides).toHaveLength(4);
    expect(updated.indicator_settings.rsi).toMatchObject({ enabled: true, length: null });
    expect(updated.indicator_settings.rsi.overrides['Plot.color']).toBe('rgb(1, 2, 3)');
    const list = (await h.request('GET', '/api/chart-snapshots/configs/', { token: u.token })).json();
    expect(list.map((c: { id: string }) => c.id)).toContain(t.id);
  });

  it('refuses bad input with field errors, never a 500', async () => {
    const u = await newUser();
    const noName = await create(u.token, { name: '  ', indicator_settings: {} });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().detail).toEqual({ name: ['Template name is required.'] });
    const bad = await create(u.token, {
      name: 'bad',
      indicator_settings: {
        emas: { periods: [0], source: 'median' },
        dmi: { overrides: { '+DI.color': '#ff0000' } },
        stoch_rsi: { k_smooth: 2.5 },
        rsi: { smoothingLine: 'HMA' },
      },
    });
    expect(bad.statusCode).toBe(400);
    const detail = bad.json().detail as Record<string, string[]>;
    expect(Object.keys(detail).sort()).toEqual([
      'indicator_settings.dmi.overrides.+DI.color',
      'indicator_settings.emas.periods.0',
      'indicator_settings.emas.source',
      'indicator_settings.rsi.smoothingLine',
      'indicator_settings.stoch_rsi.k_smooth',
    ]);
    expect(detail['indicator_settings.dmi.overrides.+DI.color']).toEqual([
      'Use a colour written as rgb(r, g, b).',
    ]);
    for (const body of ['not json', { name: 5 }, { name: 'x', indicator_settings: [] }]) {
      const res = await h.request('POST', '/api/chart-snapshots/configs/', {
        token: u.token,
        body: body as object,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('shows global templates to everyone, read-only; hides private ones; only the owner deletes', async () => {
    const owner = await newUser();
    const other = await newUser();
    const global = (await create(owner.token, { name: 'shared', is_global: true })).json();
    const mine = (await create(owner.token, { name: 'mine' })).json();
    const theirs = (await create(other.token, { name: 'theirs' })).json();

    const seen = (await h.request('GET', '/api/chart-snapshots/configs/', { token: other.token })).json();
    const ids = seen.map((c: { id: string }) => c.id);
    expect(ids).toContain(global.id);
    expect(ids).toContain(theirs.id);
    expect(ids).not.toContain(mine.id);

    const url = (id: string) => `/api/chart-snapshots/configs/${id}/`;
    expect((await h.request('GET', url(global.id), { token: other.token })).statusCode).toBe(200);
    expect((await h.request('GET', url(mine.id), { token: other.token })).statusCode).toBe(404);
    const put = await h.request('PUT', url(global.id), { token: other.token, body: { name: 'taken' } });
    expect(put.statusCode).toBe(403);
    expect((await h.request('DELETE', url(global.id), { token: other.token })).statusCode).toBe(403);
    expect(
      (await h.request('PUT', url(mine.id), { token: other.token, body: { name: 'x' } })).statusCode,
    ).toBe(404);
    expect((await h.request('DELETE', url(mine.id), { token: other.token })).statusCode).toBe(404);
    expect((await h.request('GET', url('no-such-id'), { token: other.token })).statusCode).toBe(404);
    expect((await h.request('GET', '/api/chart-snapshots/configs/')).statusCode).toBe(401);

    const del = await h.request('DELETE', url(global.id), { token: owner.token });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: 'Configuration deleted successfully' });
    expect((await h.request('GET', url(global.id), { token: other.token })).statusCode).toBe(404);
    expect((await h.request('GET', url(global.id), { token: owner.token })).statusCode).toBe(404);
  });

  it('keeps the VWAP overlay off by default, stores it, refuses bad values, and reads old rows', async () => {
    const u = await newUser();
    const t = (await create(u.token, { name: 'plain', indicator_settings: {} })).json();
    expect(t.indicator_settings.vwap).toMatchObject({
      enabled: false,
      anchor: 'Session',
      source: 'hlc3',
      band_1_multiplier: 1,
      band_2_multiplier: 2,
      band_3_multiplier: 3,
    });
    expect(t.indicator_settings.vwap.overrides).toMatchObject({
      'Band #1.visible': false,
      'Band #2.visible': false,
      'Band #3.visible': false,
    });

    const withVwap = await create(u.token, {
      name: 'vwap',
      indicator_settings: {
        vwap: {
          enabled: true,
          anchor: 'Week',
          band_1_multiplier: 1.5,
          overrides: { 'Band #1.visible': true },
        },
      },
    });
    expect(withVwap.statusCode).toBe(201);
    const v = withVwap.json().indicator_settings.vwap;
    expect(v).toMatchObject({ enabled: true, anchor: 'Week', band_1_multiplier: 1.5 });
    expect(v.overrides).toMatchObject({ 'Band #1.visible': true, 'VWAP.color': 'rgb(0, 151, 167)' });

    const bad = await create(u.token, {
      name: 'bad',
      indicator_settings: {
        vwap: { anchor: 'Year', band_2_multiplier: -1, overrides: { 'VWAP.color': 'teal' } },
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().detail).sort()).toEqual([
      'indicator_settings.vwap.anchor',
      'indicator_settings.vwap.band_2_multiplier',
      'indicator_settings.vwap.overrides.VWAP.color',
    ]);

    // A template stored before the VWAP existed reads back with the VWAP off.
    const stored = JSON.parse(JSON.stringify(t.indicator_settings));
    delete stored.vwap;
    await h.ctx.db
      .updateTable('chart_snapshot_configs')
      .set({ indicator_settings: JSON.stringify(stored) })
      .where('id', '=', t.id)
      .execute();
    const old = await h.request('GET', `/api/chart-snapshots/configs/${t.id}/`, { token: u.token });
    expect(old.statusCode).toBe(200);
    expect(old.json().indicator_settings).toEqual(t.indicator_settings);
  });
});
