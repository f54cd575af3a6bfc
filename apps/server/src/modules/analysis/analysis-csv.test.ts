import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { postForm } from '../../test/form-data';
import { waitFor } from '../../test/wait-for';

/** Dukascopy M1 lines for two days from Monday 2026-01-05 00:00 UTC: a zig-zag with a daily drift. */
function dukascopyCsv(): string {
  const lines = ['Gmt time,Open,High,Low,Close,Volume'];
  const start = Date.UTC(2026, 0, 5);
  let price = 1.1;
  for (let i = 0; i < 2 * 1440; i++) {
    const d = new Date(start + i * 60_000);
    const p2 = (n: number) => String(n).padStart(2, '0');
    const t = `${p2(d.getUTCDate())}.${p2(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:00.000`;
    const open = price;
    price = Math.round((price + (i % 7 < 4 ? 0.00003 : -0.00004)) * 1e5) / 1e5;
    const high = Math.max(open, price) + 0.00002;
    const low = Math.min(open, price) - 0.00002;
    lines.push(
      `${t},${open.toFixed(5)},${high.toFixed(5)},${low.toFixed(5)},${price.toFixed(5)},${10 + (i % 13)}`,
    );
  }
  return lines.join('\n');
}

describeEachDb('analysis of imported candles', (target) => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await createHarness(target);
    token = (await h.user('carol-csv')).token;
  });
  afterAll(() => h?.close());

  it('analyses a symbol the simulator does not know, from a CSV import', async () => {
    const before = await h.request('POST', '/api/analysis/instruments/', {
      token,
      body: { symbol: 'MYFX', source: 'csv' },
    });
    expect(before.statusCode).toBe(400);
    expect(before.json().detail).toMatch(/No imported M1 candles for MYFX/);

    const imported = await postForm(
      h,
      '/api/market/candles/import/',
      token,
      { symbol: 'MYFX' },
      {
        field: 'file',
        name: 'myfx.csv',
        data: dukascopyCsv(),
      },
    );
    expect(imported.statusCode).toBe(201);

    const added = await h.request('POST', '/api/analysis/instruments/', {
      token,
      body: { symbol: 'myfx', source: 'csv' },
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      symbol: 'MYFX',
      exchange: 'CSV',
      data_status: 'PENDING_INITIAL_DOWNLOAD',
    });
    await waitFor(async () => {
      const list = (await h.request('GET', '/api/analysis/instruments/', { token })).json() as Array<{
        data_status: string;
      }>;
      return list[0]?.data_status === 'AVAILABLE';
    }, 'MYFX to be AVAILABLE');

    const job = await h.request('POST', '/api/analysis/analyze/', {
      token,
      body: {
        instrument_symbol: 'MYFX',
        analysis_type: 'TREND_CONTINUATION',
        target_timeframe: 'H1',
        start_date: '2026-01-05',
        end_date: '2026-01-06',
      },
    });
    expect(job.statusCode).toBe(201);
    const id = job.json().job_id as string;
    const status = await waitFor(async () => {
      const s = (await h.request('GET', `/api/analysis/jobs/${id}/status/`, { token })).json() as {
        status: string;
      };
      return s.status.startsWith('COMPLETED') ? s : undefined;
    }, 'the job');
    expect(status.status).toBe('COMPLETED_SUCCESS');
    const result = (await h.request('GET', `/api/analysis/jobs/${id}/results/`, { token })).json() as {
      result_data: { components: Array<{ title: string; data: Array<{ key: string; value: unknown }> }> };
    };
    const data = result.result_data.components.find((c) => c.title === 'Data')!.data;
    // Two whole days of H1 bars.
    expect(data.find((p) => p.key === 'Bars analysed')?.value).toBe(48);
  });
});
