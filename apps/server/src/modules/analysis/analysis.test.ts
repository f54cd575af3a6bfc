import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { WEDNESDAY } from '../../test/sim-clock';
import { waitFor } from '../../test/wait-for';

type Json = Record<string, unknown>;

describeEachDb('historical data analysis', (target) => {
  let h: Harness;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };
  // Six days of simulated M1 history up to a Wednesday morning: Thursday to Wednesday.
  const overrides = { simNow: () => WEDNESDAY, analysisHistoryDays: 6 };

  beforeAll(async () => {
    h = await createHarness(target, overrides);
    alice = await h.user('alice-analysis');
    bob = await h.user('bob-analysis');
  });
  afterAll(() => h?.close());

  const get = (url: string, token = alice.token) => h.request('GET', url, { token });
  const post = (url: string, body: unknown, token = alice.token) => h.request('POST', url, { token, body });
  const instrument = async (symbol: string) =>
    ((await get('/api/analysis/instruments/')).json() as Json[]).find((i) => i.symbol === symbol);
  const finished = (id: string) =>
    waitFor(
      async () => {
        const s = (await get(`/api/analysis/jobs/${id}/status/`)).json() as Json;
        return s.status === 'COMPLETED_SUCCESS' || s.status === 'COMPLETED_FAIL' ? s : undefined;
      },
      `job ${id}`,
      60_000,
    );

  it('refuses an instrument without a symbol or with one the source does not know', async () => {
    const blank = await post('/api/analysis/instruments/', { symbol: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({ detail: 'Instrument symbol is required.' });
    const unknown = await post('/api/analysis/instruments/', { symbol: 'NOPE' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().detail).toMatch(/Unknown instrument symbol: NOPE/);
    expect((await post('/api/analysis/instruments/', {})).statusCode).toBe(400);
  });

  it('adds an instrument, downloads its history (PENDING_INITIAL_DOWNLOAD → AVAILABLE), refreshes it (UPDATING)', async () => {
    const res = await post('/api/analysis/instruments/', { symbol: ' eurusd ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      symbol: 'EURUSD',
      exchange: 'SIM',
      data_status: 'PENDING_INITIAL_DOWNLOAD',
      base_timeframe: 'M1',
      last_updated: null,
    });
    const ready = await waitFor(
      async () => {
        const i = await instrument('EURUSD');
        return i?.data_status === 'AVAILABLE' ? i : undefined;
      },
      'EURUSD to be AVAILABLE',
      60_000,
    );
    expect(typeof ready.last_updated).toBe('string');
    const again = await post('/api/analysis/instruments/', { symbol: 'EURUSD' });
    expect(again.statusCode).toBe(200);
    expect(again.json().data_status).toBe('UPDATING');
    await waitFor(async () => (await instrument('EURUSD'))?.data_status === 'AVAILABLE', 'refresh', 60_000);
    // Bob has none of Alice's instruments.
    expect((await get('/api/analysis/instruments/', bob.token)).json()).toEqual([]);
  });

  const job = {
    instrument_symbol: 'EURUSD',
    target_timeframe: 'M15',
    start_date: '2025-12-01',
    end_date: '2026-01-07',
  };

  it('validates a job with the spec messages', async () => {
    const missing = await post('/api/analysis/analyze/', {
      ...job,
      analysis_type: 'TREND_CONTINUATION',
      start_date: '',
    });
    expect(missing.json()).toEqual({ detail: 'All fields are required.' });
    const backwards = await post('/api/analysis/analyze/', {
      ...job,
      analysis_type: 'TREND_CONTINUATION',
      start_date: '2026-01-07',
      end_date: '2026-01-06',
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toEqual({ detail: 'End date must be after start date.' });
    const type = await post('/api/analysis/analyze/', { ...job, analysis_type: 'MAGIC' });
    expect(type.statusCode).toBe(400);
    const tf = await post('/api/analysis/analyze/', {
      ...job,
      analysis_type: 'ATR_SCENARIO',
      target_timeframe: 'M2',
    });
    expect(tf.statusCode).toBe(400);
    const date = await post('/api/analysis/analyze/', {
      ...job,
      analysis_type: 'ATR_SCENARIO',
      start_date: '07/01/2026',
    });
    expect(date.statusCode).toBe(400);
    const notMine = await post(
      '/api/analysis/analyze/',
      { ...job, analysis_type: 'ATR_SCENARIO' },
      bob.token,
    );
    expect(notMine.statusCode).toBe(400);
    expect(notMine.json().detail).toMatch(/add it first/);
    const sessions = await post('/api/analysis/analyze/', {
      ...job,
      analysis_type: 'ATR_SCENARIO',
      parameters: {
        sessions: [
          { name: 'A', start_hour: 5, end_hour: 2 },
          { name: 'B', start_hour: 2, end_hour: 9 },
        ],
      },
    });
    expect(sessions.statusCode).toBe(400);
  });

  for (const [type, timeframe] of [
    ['TREND_CONTINUATION', 'M15'],
    ['VWAP_CONDITIONAL', 'M15'],
    ['ATR_SCENARIO', 'H1'],
  ] as const) {
    it(`runs ${type} end to end on simulated data`, async () => {
      const res = await post('/api/analysis/analyze/', {
        ...job,
        analysis_type: type,
        target_timeframe: timeframe,
      });
      expect(res.statusCode).toBe(201);
      const submitted = res.json() as Json;
      expect(submitted).toMatchObject({
        analysis_type: type,
        instrument_symbol: 'EURUSD',
        status: 'PENDING',
        target_timeframe: timeframe,
      });
      const status = await finished(submitted.job_id as string);
      expect(status).toMatchObject({ status: 'COMPLETED_SUCCESS', progress: 100, error_message: null });
      const results = await get(`/api/analysis/jobs/${submitted.job_id}/results/`);
      expect(results.statusCode).toBe(200);
      const body = results.json() as {
        generated_at: string;
        analysis_display_name: string;
        result_data: { components: Json[] };
      };
      expect(Date.parse(body.generated_at)).not.toBeNaN();
      const types = new Set(body.result_data.components.map((c) => c.type));
      expect([...types].sort()).toEqual(['image_svg', 'key_value_pairs', 'table']);
      for (const c of body.result_data.components.filter((x) => x.type === 'image_svg')) {
        const svg = (c.data as { svg_content: string }).svg_content;
        expect(svg.startsWith('<svg')).toBe(true);
        expect(svg).not.toMatch(/<script|\son\w+=|href=/i);
      }
      const keyFigures = body.result_data.components.find((c) => c.title === 'Key figures')!;
      const keys = (keyFigures.data as Array<{ key: string }>).map((p) => p.key);
      if (type === 'TREND_CONTINUATION') {
        expect(keys).toEqual([
          'Previous session',
          'Next session',
          'Comparable days',
          'Days continued',
          'Continuation %',
          '95 % interval',
        ]);
      }
      if (type === 'ATR_SCENARIO') {
        const best = body.result_data.components.find((c) => String(c.title).startsWith('Best cells'))!;
        for (const row of (best.data as { rows: Array<Json> }).rows) {
          expect((row.calculator as { href: string }).href).toMatch(/^\/win-rate\?r=[\d.]+&hit=[\d.]+$/);
        }
      }
      expect(body.result_data.components.some((c) => c.title === 'Definitions')).toBe(true);
    });
  }

  it('takes session hours from the job parameters', async () => {
    const res = await post('/api/analysis/analyze/', {
      ...job,
      analysis_type: 'TREND_CONTINUATION',
      target_timeframe: 'H1',
      parameters: {
        sessions: [
          { name: 'Morning', start_hour: 0, end_hour: 12 },
          { name: 'Afternoon', start_hour: 12, end_hour: 24 },
        ],
      },
    });
    expect(res.statusCode).toBe(201);
    expect((await finished(res.json().job_id)).status).toBe('COMPLETED_SUCCESS');
    const body = (await get(`/api/analysis/jobs/${res.json().job_id}/results/`)).json() as {
      result_data: { components: Array<{ title: string; data: unknown }> };
    };
    const data = body.result_data.components.find((c) => c.title === 'Data')!.data as Array<{
      key: string;
      value: unknown;
    }>;
    expect(data.find((p) => p.key === 'Sessions (UTC)')?.value).toBe(
      'Morning 00:00–12:00, Afternoon 12:00–24:00',
    );
    const key = body.result_data.components.find((c) => c.title === 'Key figures')!.data as Array<{
      key: string;
      value: unknown;
    }>;
    expect(key.slice(0, 2).map((p) => p.value)).toEqual(['Morning', 'Afternoon']);
  });

  it("lists the user's jobs and hides them from others (404)", async () => {
    const jobs = (await get('/api/analysis/jobs/')).json() as Json[];
    expect(jobs.length).toBeGreaterThanOrEqual(3);
    const id = jobs[0]!.job_id as string;
    expect((await get('/api/analysis/jobs/', bob.token)).json()).toEqual([]);
    expect((await get(`/api/analysis/jobs/${id}/status/`, bob.token)).statusCode).toBe(404);
    expect((await get(`/api/analysis/jobs/${id}/results/`, bob.token)).statusCode).toBe(404);
    expect((await get('/api/analysis/jobs/not-a-job/status/')).statusCode).toBe(404);
  });

  it('a job fails with a reason when the period holds no candles, and has no results', async () => {
    // A Saturday and Sunday morning: FX is closed.
    const res = await post('/api/analysis/analyze/', {
      ...job,
      analysis_type: 'VWAP_CONDITIONAL',
      start_date: '2026-01-03T00:00:00Z',
      end_date: '2026-01-04T12:00:00Z',
    });
    const status = await finished(res.json().job_id);
    expect(status.status).toBe('COMPLETED_FAIL');
    expect(status.error_message).toMatch(/No EURUSD candles/);
    expect((await get(`/api/analysis/jobs/${res.json().job_id}/results/`)).statusCode).toBe(409);
  });

  it('a job submitted before a restart completes after it', async () => {
    const res = await post('/api/analysis/analyze/', {
      ...job,
      analysis_type: 'TREND_CONTINUATION',
      target_timeframe: 'H1',
    });
    h = await h.restart();
    const status = await finished(res.json().job_id);
    expect(status.status).toBe('COMPLETED_SUCCESS');
  });
});

describe('analysis routes need a token', () => {
  it('answers 401 without one', async () => {
    const h = await createHarness({ name: 'sqlite' });
    try {
      expect((await h.request('GET', '/api/analysis/jobs/')).statusCode).toBe(401);
    } finally {
      await h.close();
    }
  });
});
