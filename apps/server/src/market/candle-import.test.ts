import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CANDLE_CSV_FORMATS } from '@tradedesk/contract';
import { createHarness, describeEachDb, type Harness } from '../test/harness';
import { postForm } from '../test/form-data';
import { WEDNESDAY } from '../test/sim-clock';

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', name));
const IMPORT = '/api/market/candles/import/';

/** The six bars every fixture holds, in UTC (see fixtures/). */
const BARS = {
  symbol: 'EURUSD',
  timeframe: 'M1',
  time: [
    '2025-12-31T23:57:00Z',
    '2025-12-31T23:58:00Z',
    '2025-12-31T23:59:00Z',
    '2026-01-01T00:00:00Z',
    '2026-01-01T00:01:00Z',
    '2026-01-01T00:03:00Z',
  ].map(Date.parse),
  open: [1.17351, 1.17355, 1.17368, 1.17334, 1.1731, 1.17322],
  high: [1.1736, 1.17371, 1.17369, 1.1734, 1.17325, 1.1739],
  low: [1.17342, 1.1735, 1.1733, 1.17301, 1.17309, 1.17322],
  close: [1.17355, 1.17368, 1.17334, 1.1731, 1.17322, 1.17388],
};
const FROM = '2025-12-31T00:00:00Z';
const TO = '2026-01-02T00:00:00Z';

describeEachDb('candle CSV import', (target) => {
  let h: Harness;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };
  const read = (token: string, tf = 'M1', symbol = 'EURUSD') =>
    h.request(
      'GET',
      `/api/market/candles/?source=csv&symbol=${symbol}&timeframe=${tf}&from=${FROM}&to=${TO}`,
      { token },
    );

  beforeAll(async () => {
    h = await createHarness(target, { simNow: () => WEDNESDAY });
    alice = await h.user('alice');
    bob = await h.user('bob');
  });
  afterAll(() => h.close());

  it.each([
    ['mt5', 'mt5-export-bars-eurusd-m1.csv', { utc_offset_minutes: '120' }, [41, 37, 52, 66, 18, 25]],
    ['histdata', 'histdata-ascii-eurusd-m1.csv', {}, [0, 0, 0, 0, 0, 0]],
    ['dukascopy', 'dukascopy-eurusd-m1.csv', {}, [41.5, 37.5, 52.5, 66.5, 18.5, 25.5]],
  ] as const)(
    'imports the %s format across a month boundary and reads it back in UTC',
    async (format, file, fields, volume) => {
      const user = await h.user(`trader-${format}`);
      const res = await postForm(
        h,
        IMPORT,
        user.token,
        { symbol: 'eurusd', ...fields },
        { field: 'file', name: file, data: fixture(file) },
      );
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toEqual({
        symbol: 'EURUSD',
        format,
        bars: 6,
        first: '2025-12-31T23:57:00.000Z',
        last: '2026-01-01T00:03:00.000Z',
        months: ['2025-12', '2026-01'],
      });
      const back = await read(user.token);
      expect(back.statusCode).toBe(200);
      expect(back.json()).toEqual({ ...BARS, volume });
      // Other timeframes are built from the imported minutes; the missing 00:02 stays missing.
      const m5 = (await read(user.token, '5m')).json();
      expect(m5.time.map((t: number) => new Date(t).toISOString())).toEqual([
        '2025-12-31T23:55:00.000Z',
        '2026-01-01T00:00:00.000Z',
      ]);
      expect(m5.high).toEqual([1.17371, 1.1739]);
      expect(m5.close).toEqual([1.17334, 1.17388]);
    },
  );

  it('reads MT5 files written in UTF-16; an import replaces the stored minutes it spans, no others', async () => {
    const text = fixture('mt5-export-bars-eurusd-m1.csv').toString('utf8').replace('1.17388', '1.17389');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const first = await postForm(
      h,
      IMPORT,
      alice.token,
      { symbol: 'EURUSD', utc_offset_minutes: '120' },
      { field: 'file', name: 'a.csv', data: fixture('mt5-export-bars-eurusd-m1.csv') },
    );
    expect(first.statusCode).toBe(201);
    const again = await postForm(
      h,
      IMPORT,
      alice.token,
      { symbol: 'EURUSD', utc_offset_minutes: '120' },
      { field: 'file', name: 'b.csv', data: utf16 },
    );
    expect(again.statusCode, again.body).toBe(201);
    const back = (await read(alice.token)).json();
    expect(back.time).toEqual(BARS.time);
    expect(back.close.at(-1)).toBe(1.17389);
    // A file of two minutes across the month boundary replaces those two; the bars around them stay.
    const middle = [
      'Gmt time,Open,High,Low,Close,Volume',
      '31.12.2025 23:59:00.000,1.17368,1.17369,1.1733,1.17333,1',
      '01.01.2026 00:00:00.000,1.17334,1.1734,1.17301,1.17311,1',
    ].join('\n');
    const part = await postForm(
      h,
      IMPORT,
      alice.token,
      { symbol: 'EURUSD' },
      { field: 'file', name: 'c.csv', data: middle },
    );
    expect(part.statusCode, part.body).toBe(201);
    expect(part.json().months).toEqual(['2025-12', '2026-01']);
    const mixed = (await read(alice.token)).json();
    expect(mixed.time).toEqual(BARS.time);
    expect(mixed.close).toEqual([1.17355, 1.17368, 1.17333, 1.17311, 1.17322, 1.17389]);
    expect(mixed.volume).toEqual([41, 37, 1, 1, 18, 25]);
  });

  it('keeps imports private: another user reads nothing of them', async () => {
    const res = await read(bob.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().time).toEqual([]);
    const rows = await h.ctx.db
      .selectFrom('candle_chunks')
      .select(['source', 'user_id'])
      .where('source', '=', `csv:${alice.id}`)
      .execute();
    expect(rows.length).toBe(2);
    expect(new Set(rows.map((r) => r.user_id))).toEqual(new Set([alice.id]));
  });

  it('refuses a file of no accepted format with a 400 that names the accepted formats', async () => {
    for (const data of [
      'name,age\nbob,3\n',
      'Date,Open,High,Low,Close\n2026-01-01,1,2,0.5,1.5\n',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    ]) {
      const res = await postForm(
        h,
        IMPORT,
        alice.token,
        { symbol: 'EURUSD' },
        { field: 'file', name: 'x.csv', data },
      );
      expect(res.statusCode).toBe(400);
      const message: string = res.json().detail.file[0];
      expect(message).toMatch(/^Unrecognised candle file\. Accepted formats: /);
      for (const f of Object.values(CANDLE_CSV_FORMATS)) expect(message).toContain(f);
    }
  });

  it('names the line at fault in a recognised file, and checks the form', async () => {
    const bad = fixture('dukascopy-eurusd-m1.csv').toString().replace('1.17371,1.17350', '1.17300,1.17350');
    const cases: [Record<string, string>, string | undefined, unknown][] = [
      [
        { symbol: 'EURUSD' },
        bad,
        { file: ['Line 3: the high must be the highest price and the low the lowest.'] },
      ],
      [
        { symbol: 'EURUSD' },
        'Gmt time,Open,High,Low,Close,Volume\n31.12.2025 23:57:30.000,1,1,1,1,1\n',
        { file: ['Line 2: the time is not on a whole minute (M1 bars only).'] },
      ],
      [
        { symbol: 'EURUSD' },
        'Gmt time,Open,High,Low,Close,Volume\n31.12.2025 23:57:00.000,1,x,1,1,1\n',
        { file: ['Line 2: prices and volume must be numbers.'] },
      ],
      [
        { symbol: 'EURUSD' },
        '20251231 185700;1.1;1.2;1.0;1.1;0\n2025123 185800;1.1;1.2;1.0;1.1;0\n',
        { file: ['Line 2: not a HistData ASCII M1 row.'] },
      ],
      [{ symbol: 'EURUSD' }, '', { file: ['Choose a CSV file of M1 bars.'] }],
      [{ symbol: 'EURUSD' }, undefined, { file: ['Choose a CSV file of M1 bars.'] }],
      [{}, fixture('dukascopy-eurusd-m1.csv').toString(), { symbol: ['This field is required.'] }],
      [
        { symbol: 'EUR/USD' },
        fixture('dukascopy-eurusd-m1.csv').toString(),
        { symbol: ['A symbol is letters, digits and . _ # - only.'] },
      ],
    ];
    for (const [fields, data, detail] of cases) {
      const res = await postForm(
        h,
        IMPORT,
        alice.token,
        fields,
        data === undefined ? undefined : { field: 'file', name: 'x.csv', data },
      );
      expect(res.statusCode, JSON.stringify(detail)).toBe(400);
      expect(res.json().detail).toEqual(detail);
    }
    const json = await h.request('POST', IMPORT, { token: alice.token, body: { symbol: 'EURUSD' } });
    expect(json.statusCode).toBe(400);
  });
});
