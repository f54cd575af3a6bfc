import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { DAY, HOUR, WEDNESDAY } from '../../test/sim-clock';
import { waitFor } from '../../test/wait-for';

type Json = Record<string, unknown>;

/** Sunday 2026-01-11 12:00 UTC: FX has been closed since Friday 22:00, so the last day holds no M1 bar. */
const SUNDAY_NOON = WEDNESDAY + 4 * DAY + 2 * HOUR;

const job = (symbol: string) => ({
  instrument_symbol: symbol,
  analysis_type: 'VWAP_CONDITIONAL',
  target_timeframe: 'M15',
  start_date: '2026-01-05',
  end_date: '2026-01-07',
});

/**
 * Issue 16: an analysis job needs an AVAILABLE instrument (409 otherwise, naming the state), and a
 * download that cannot get any history leaves the instrument in ERROR with the reason.
 */
describeEachDb('analysis instruments that are not AVAILABLE', (target) => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    // One day of history asked for at the weekend: the simulated FX market has none to give.
    h = await createHarness(target, { simNow: () => SUNDAY_NOON, analysisHistoryDays: 1 });
    token = (await h.user('dora-analysis')).token;
  });
  afterAll(() => h?.close());

  const instrument = async (symbol: string) =>
    ((await h.request('GET', '/api/analysis/instruments/', { token })).json() as Json[]).find(
      (i) => i.symbol === symbol,
    );
  const inError = (symbol: string) =>
    waitFor(async () => {
      const i = await instrument(symbol);
      return i?.data_status === 'ERROR' ? i : undefined;
    }, `${symbol} to end in ERROR`);
  const reason = 'The source has no M1 history for EURUSD in the last 1 days.';

  it('ends a download without history in ERROR with its reason, and refuses jobs on it with 409', async () => {
    const added = await h.request('POST', '/api/analysis/instruments/', {
      token,
      body: { symbol: 'EURUSD' },
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ data_status: 'PENDING_INITIAL_DOWNLOAD', error_message: null });

    const failed = await inError('EURUSD');
    expect(failed).toMatchObject({ error_message: reason, last_updated: null });

    const refused = await h.request('POST', '/api/analysis/analyze/', { token, body: job('EURUSD') });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ detail: 'EURUSD data is not available yet (ERROR).' });
    expect((await h.request('GET', '/api/analysis/jobs/', { token })).json()).toEqual([]);
  });

  it('retries an instrument in ERROR when it is added again: the reason is cleared, then set again', async () => {
    const again = await h.request('POST', '/api/analysis/instruments/', {
      token,
      body: { symbol: 'EURUSD' },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ data_status: 'PENDING_INITIAL_DOWNLOAD', error_message: null });
    expect(await inError('EURUSD')).toMatchObject({ error_message: reason });
  });
});

describeEachDb('analysis jobs on an instrument still downloading', (target) => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    // No job workers in this process: the download stays queued, so the instrument stays PENDING.
    h = await createHarness(target, {
      simNow: () => WEDNESDAY,
      analysisHistoryDays: 1,
      jobs: { workers: 0, leaseMs: 5000, pollMs: 1000, sweepMs: 2000 },
    });
    token = (await h.user('ed-analysis')).token;
  });
  afterAll(() => h?.close());

  it('answers 409 naming the state, and creates no job', async () => {
    const added = await h.request('POST', '/api/analysis/instruments/', {
      token,
      body: { symbol: 'GBPUSD' },
    });
    expect(added.json()).toMatchObject({ data_status: 'PENDING_INITIAL_DOWNLOAD' });
    const refused = await h.request('POST', '/api/analysis/analyze/', { token, body: job('GBPUSD') });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      detail: 'GBPUSD data is not available yet (PENDING_INITIAL_DOWNLOAD).',
    });
    expect((await h.request('GET', '/api/analysis/jobs/', { token })).json()).toEqual([]);
    const list = (await h.request('GET', '/api/analysis/instruments/', { token })).json() as Json[];
    expect(list).toEqual([
      expect.objectContaining({ symbol: 'GBPUSD', data_status: 'PENDING_INITIAL_DOWNLOAD' }),
    ]);
  });
});
