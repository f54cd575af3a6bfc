import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { HistoryTrade, StatementImport } from '@tradedesk/contract';
import { STATEMENT_FORMATS, STATEMENT_MAX_BYTES } from '@tradedesk/contract';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { newTrader, type Trader } from '../../test/traders';
import { postForm } from '../../test/form-data';
import { htmlTable } from './parsers/tables';
import { decodeStatement, statementTime } from './parsers/text';
import { makeXlsx, serialDay, type XlsxCell } from './fixtures/make-xlsx';

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', name));

/** The MT5 report's rows as its XLSX variant holds them: times as date cells, numbers as numbers. */
function mt5Xlsx(): Buffer {
  const { rows } = htmlTable(decodeStatement(fixture('mt5-report.html')));
  return makeXlsx(
    rows.map((r) =>
      r.map((c): XlsxCell => {
        const t = statementTime(c);
        if (Number.isFinite(t)) return serialDay(t);
        return /^-?\d[\d ]*(\.\d+)?$/.test(c) ? Number(c.replace(/ /g, '')) : c;
      }),
    ),
  );
}

/** The cTrader CSV fixture as its XLSX variant: the same cells. */
function cTraderXlsx(): Buffer {
  const text = fixture('ctrader-history.csv')
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const rows = text
    .trim()
    .split(/\r\n/)
    .map((l) => l.match(/("[^"]*"|[^,]+)/g)!.map((c) => c.replace(/^"|"$/g, '')));
  return makeXlsx(rows);
}

describeEachDb('statement import', (target) => {
  let h: Harness;
  let n = 0;
  beforeAll(async () => {
    h = await createHarness(target);
  });
  afterAll(() => h.close());

  const trader = () => newTrader(h, `importer${++n}`);

  async function send(t: Trader, file: Buffer | string, query = '', accountId = t.accountId) {
    return postForm(
      h,
      `/api/history/accounts/${accountId}/import/${query}`,
      t.token,
      {},
      { field: 'file', name: 'statement', data: file },
    );
  }
  async function ok(t: Trader, file: Buffer | string, query = ''): Promise<StatementImport> {
    const res = await send(t, file, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }
  async function history(t: Trader): Promise<HistoryTrade[]> {
    const res = await h.request('GET', `/api/history/accounts/${t.accountId}/trades/?sort=oldest&limit=100`, {
      token: t.token,
    });
    expect(res.statusCode).toBe(200);
    return res.json().results;
  }
  const counts = async (accountId: string) => ({
    trades: (await h.ctx.db.selectFrom('trades').select('id').where('account_id', '=', accountId).execute())
      .length,
    deals: (
      await h.ctx.db.selectFrom('trade_deals').select('id').where('account_id', '=', accountId).execute()
    ).length,
  });

  it('previews an MT5 Report (UTF-16, CRLF) without writing, then imports it once however often it is sent', async () => {
    const t = await trader();
    const preview = await ok(t, fixture('mt5-report.html'), '?dry_run=1');
    expect(preview).toMatchObject({
      dry_run: true,
      format: 'mt5_report_html',
      time_zone: 'FX',
      detected_time_zone: null,
      from: '2026-06-01T06:00:00.000Z',
      to: '2026-06-05T17:00:00.000Z',
      counts: {
        trades: 4,
        new_trades: 4,
        known_trades: 0,
        open_positions: 1,
        deals: 10,
        deposits: 1,
        withdrawals: 1,
      },
      deposits_total: 10000,
      withdrawals_total: 500,
      imported: null,
    });
    expect(preview.warnings).toEqual([
      'Unknown symbols, not on this account: GER40.cash (filed as GER40).',
      '1 position is still open: not imported, the broker sync files it.',
    ]);
    expect(preview.rows.map((r) => [r.instrument, r.statement_symbol, r.status])).toEqual([
      ['EURUSD', 'EURUSD.m', 'new'],
      ['GBPUSD', 'GBPUSD.m', 'new'],
      ['XAUUSD', 'XAUUSD.m', 'new'],
      ['GER40', 'GER40.cash', 'new'],
      ['EURUSD', 'EURUSD.m', 'open'],
    ]);
    expect(await counts(t.accountId)).toEqual({ trades: 0, deals: 0 });

    const done = await ok(t, fixture('mt5-report.html'), '?time_zone=FX');
    expect(done.imported).toEqual({ new_trades: 4, new_deals: 9, updated_trades: 0 });
    const trades = await history(t);
    expect(trades.map((x) => [x.instrument, x.direction, x.lot_size, x.source, x.trade_status])).toEqual([
      ['EURUSD', 'BUY', 1, 'import', 'closed'],
      ['GBPUSD', 'SELL', 0.5, 'import', 'closed'],
      ['XAUUSD', 'BUY', 0.1, 'import', 'closed'],
      ['GER40', 'BUY', 0.1, 'import', 'closed'],
    ]);
    const eur = trades[0]!;
    // Server time 2026.06.01 10:00 is UTC+3 in June (New York summer time + 7 h).
    expect(eur).toMatchObject({
      created_at: '2026-06-01T07:00:00.000Z',
      closed_at: '2026-06-02T12:30:00.000Z',
      entry_price: 1.08,
      stop_loss: 1.078,
      take_profit: 1.081,
      // 100 + 60 profit, 3.50 + 1.40 + 2.10 commission, 1.20 swap.
      actual_profit_loss: 151.8,
      // The stop 20 pips away on 1 lot risked 200 (the trade made 160 over 16 pips).
      r_multiple: 0.76,
      is_external: true,
    });
    expect(
      eur.order_history.map((d) => [d.entry, d.filled_volume, d.commission, d.swap, d.deal_reason]),
    ).toEqual([
      ['IN', 1, -3.5, 0, 'MARKET'],
      ['OUT', 0.4, -1.4, 0, 'PARTIAL_CLOSE'],
      ['OUT', 0.6, -2.1, -1.2, 'TAKE_PROFIT'],
    ]);
    // −103.50 over a 100 risk: −1.035, which the history rounds half away from zero (the domain's
    // one rounding, as money is) to −1.04.
    expect(trades[1]).toMatchObject({ actual_profit_loss: -103.5, r_multiple: -1.04 });

    const stats = (
      await h.request('GET', `/api/history/accounts/${t.accountId}/stats/`, { token: t.token })
    ).json();
    expect(stats).toMatchObject({ trades: 4, wins: 3, losses: 1, net_profit_loss: 157.45 });
    const report = await h.request(
      'GET',
      `/api/reports/summary/?account=${t.accountId}&from=2026-06-01&to=2026-06-30`,
      { token: t.token },
    );
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json().figures).toMatchObject({ trades: 4, net_minor: 15745, r_trades: 3 });

    // Journaled like any trade.
    const journal = await h.request('POST', '/api/trade_journal/journals/', {
      token: t.token,
      body: {
        trade: eur.id,
        action: 'Closed',
        trade_timeframe: '1H',
        reason: 'Imported',
        strategy_tag: 'breakout',
      },
    });
    expect(journal.statusCode, journal.body).toBeLessThan(300);

    const before = await counts(t.accountId);
    const again = await ok(t, fixture('mt5-report.html'));
    expect(again.imported).toEqual({ new_trades: 0, new_deals: 0, updated_trades: 0 });
    expect(again.counts).toMatchObject({ new_trades: 0, known_trades: 4 });
    expect(again.rows.slice(0, 4).every((r) => r.status === 'known')).toBe(true);
    expect(await counts(t.accountId)).toEqual(before);
  });

  it('converts with the zone chosen before confirming', async () => {
    const t = await trader();
    await ok(t, fixture('mt5-report.html'), '?time_zone=UTC');
    expect((await history(t))[0]).toMatchObject({
      created_at: '2026-06-01T10:00:00.000Z',
      closed_at: '2026-06-02T15:30:00.000Z',
    });
  });

  it('reads the XLSX variant of the MT5 Report to the same trades', async () => {
    const a = await trader();
    const b = await trader();
    const viaXlsx = await ok(a, mt5Xlsx());
    expect(viaXlsx.format).toBe('mt5_report_xlsx');
    await ok(b, fixture('mt5-report.html'));
    const strip = (list: HistoryTrade[]) =>
      list.map(({ id: _id, account_id: _a, order_history, ...rest }) => ({
        ...rest,
        order_history: order_history.map(({ id: _d, ...d }) => d),
      }));
    expect(strip(await history(a))).toEqual(strip(await history(b)));
  });

  it('imports an MT5 Deals CSV (BOM, semicolons, # suffix), then only what an overlapping one adds', async () => {
    const t = await trader();
    const first = await ok(t, fixture('mt5-deals.csv'));
    expect(first).toMatchObject({
      format: 'mt5_deals_csv',
      counts: { trades: 2, deposits: 1, withdrawals: 1 },
      imported: { new_trades: 2, new_deals: 5 },
      warnings: [],
    });
    const [eur] = await history(t);
    // 10 − 20 profit, 1.05 + 0.35 + 0.70 commission and a 0.10 fee, 0.66 swap.
    expect(eur).toMatchObject({
      instrument: 'EURUSD',
      lot_size: 0.3,
      actual_profit_loss: -12.86,
      r_multiple: null,
    });
    const next = await ok(t, fixture('mt5-deals-next-week.csv'));
    expect(next.counts).toMatchObject({ trades: 2, new_trades: 1, known_trades: 1 });
    expect(next.imported).toEqual({ new_trades: 1, new_deals: 2, updated_trades: 0 });
    expect((await history(t)).map((x) => x.instrument)).toEqual(['EURUSD', 'XAUUSD', 'GBPUSD']);
  });

  it('imports an MT4 Detailed Statement: a partial close is one trade, balance rows and cancelled orders are not trades', async () => {
    const t = await trader();
    const res = await ok(t, fixture('mt4-statement.html'));
    expect(res).toMatchObject({
      format: 'mt4_statement_html',
      counts: { trades: 2, deposits: 1, withdrawals: 1 },
      deposits_total: 5000,
      withdrawals_total: 1000,
      imported: { new_trades: 2, new_deals: 6 },
    });
    expect(res.warnings).toContain('1 open trade is not imported until closed.');
    const [eur, gbp] = await history(t);
    expect(eur).toMatchObject({
      instrument: 'EURUSD',
      lot_size: 1,
      created_at: '2026-06-15T07:00:00.000Z',
      closed_at: '2026-06-16T06:30:00.000Z',
      actual_profit_loss: 16.3,
      r_multiple: 0.08,
    });
    expect(eur!.order_history).toHaveLength(4);
    expect(gbp).toMatchObject({
      instrument: 'GBPUSD',
      direction: 'SELL',
      actual_profit_loss: 78.6,
      r_multiple: 1.31,
    });
    expect((await ok(t, fixture('mt4-statement.html'))).imported).toEqual({
      new_trades: 0,
      new_deals: 0,
      updated_trades: 0,
    });
  });

  it('imports cTrader History as CSV and XLSX, in the zone its header states', async () => {
    for (const [file, format] of [
      [fixture('ctrader-history.csv'), 'ctrader_history_csv'],
      [cTraderXlsx(), 'ctrader_history_xlsx'],
    ] as const) {
      const t = await trader();
      const res = await ok(t, file);
      expect(res).toMatchObject({
        format,
        time_zone: 'Etc/GMT-3',
        detected_time_zone: 'Etc/GMT-3',
        imported: { new_trades: 2, new_deals: 5 },
      });
      const [eur, xau] = await history(t);
      expect(eur).toMatchObject({
        lot_size: 1,
        created_at: '2026-06-22T07:00:00.120Z',
        closed_at: '2026-06-23T06:15:30.000Z',
        actual_profit_loss: 42.9,
      });
      expect(xau).toMatchObject({ direction: 'SELL', actual_profit_loss: -50.6 });
      expect((await ok(t, file)).imported).toEqual({ new_trades: 0, new_deals: 0, updated_trades: 0 });
    }
  });

  it('answers 400 for files of no accepted format, naming the formats', async () => {
    const t = await trader();
    const zipOfNothing = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(64, 7)]);
    for (const bad of [
      fixture('not-a-statement.csv'),
      'hello',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]),
      zipOfNothing,
      '<html><table><tr><td>1</td></tr></table></html>',
    ]) {
      const res = await send(t, bad);
      expect(res.statusCode, res.body).toBe(400);
      expect(JSON.stringify(res.json().detail)).toContain(STATEMENT_FORMATS.mt4_statement_html);
    }
    expect((await send(t, '')).statusCode).toBe(400);
    expect((await send(t, fixture('mt5-deals.csv'), '?time_zone=Mars/Base')).json()).toEqual({
      detail: { time_zone: ['Unknown time zone.'] },
    });
    const notMultipart = await h.request('POST', `/api/history/accounts/${t.accountId}/import/`, {
      token: t.token,
      body: { file: 'x' },
    });
    expect(notMultipart.statusCode).toBe(400);
    expect(await counts(t.accountId)).toEqual({ trades: 0, deals: 0 });
  });

  it('accepts a statement up to the limit and answers 413 beyond it', async () => {
    const t = await trader();
    // A deals CSV padded with a long comment: 12 MB, over the 10 MB default of other uploads.
    const padded = fixture('mt5-deals.csv')
      .toString('utf8')
      .replace(';partial close', `;${'x'.repeat(12 * 1024 * 1024)}`);
    expect((await ok(t, padded, '?dry_run=1')).counts.trades).toBe(2);
    const huge = await send(t, Buffer.alloc(STATEMENT_MAX_BYTES + 1, 0x41));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().detail).toMatch(/larger than 20 MB/);
  });

  it("answers 404 for another user's account and an unknown one, without reading the file", async () => {
    const owner = await trader();
    const other = await trader();
    expect((await send(other, fixture('mt5-deals.csv'), '', owner.accountId)).statusCode).toBe(404);
    expect((await send(other, 'not a statement', '', owner.accountId)).statusCode).toBe(404);
    expect(
      (await send(other, fixture('mt5-deals.csv'), '', '00000000-0000-4000-8000-000000000000')).statusCode,
    ).toBe(404);
    expect(await counts(owner.accountId)).toEqual({ trades: 0, deals: 0 });
    const anonymous = await h.app.inject({
      method: 'POST',
      url: `/api/history/accounts/${owner.accountId}/import/`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
