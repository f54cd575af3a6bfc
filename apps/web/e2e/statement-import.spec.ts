import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, signIn, test } from './fixtures';
import { auth, pickOption } from './helpers';

/** The MT5 terminal's Report as the server's import tests use it (UTF-16, CRLF, June 2026). */
const MT5_REPORT = readFileSync(
  path.resolve(import.meta.dirname, '../../server/src/modules/statement-import/fixtures/mt5-report.html'),
);

test('statement import: an MT5 report previewed, imported, then in Reports by tag with calendar and R histogram', async ({
  page,
  request,
  user,
}) => {
  // Reading a statement, importing it and drawing the reports is several round trips on a shared machine.
  test.setTimeout(120_000);
  const [demo] = (await (await request.get('/api/accounts/', { headers: auth(user) })).json()) as Array<{
    id: string;
  }>;
  await signIn(page, user);
  await page.goto(`/accounts/${demo!.id}/trade-history`);

  // Keyboard first: the button opens the dialog.
  await page.getByRole('button', { name: 'Import statement' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Import statement' });
  await expect(dialog).toBeVisible();
  await dialog.locator('input[type="file"]').setInputFiles({
    name: 'ReportHistory-51234567.html',
    mimeType: 'text/html',
    buffer: MT5_REPORT,
  });

  const preview = dialog.getByLabel('Statement preview');
  await expect(preview.getByText('MT5 terminal Report (HTML, Positions/Orders/Deals)')).toBeVisible();
  const contents = preview.getByLabel('Statement contents');
  await expect(contents.getByText('4 closed trades: 4 new, 0 already in the history')).toBeVisible();
  await expect(contents.getByText(/1 deposits .*1 withdrawals/)).toBeVisible();
  await expect(preview.getByText(/Unknown symbols, not on this account: GER40\.cash/)).toBeVisible();
  const rows = preview.getByRole('table', { name: 'First rows of the statement' });
  await expect(rows.getByRole('row')).toHaveCount(6);
  await expect(rows.getByRole('row').nth(1)).toContainText('EURUSD (EURUSD.m)');

  // The preview is readable by assistive technology (no serious axe-core finding in the dialog).
  const { violations } = await new AxeBuilder({ page })
    .include('[role="dialog"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} [${n.any[0]?.message ?? ''}]`).join(', ')}`,
      ),
  ).toEqual([]);

  // The zone is chosen before confirming; the preview is read again in it.
  const zone = preview.getByRole('combobox', { name: "Time zone of the statement's times" });
  await expect(zone).toHaveValue(/Broker server time/);
  await pickOption(page, zone, 'UTC');
  await expect(zone).toHaveValue('UTC');
  await expect(contents.getByText('4 closed trades: 4 new, 0 already in the history')).toBeVisible();

  await preview.getByRole('button', { name: 'Import 4 trades' }).click();
  await expect(dialog.getByRole('status')).toContainText('4 new trades and 9 deals imported');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();

  // The history shows them, marked as imported (the page's own range: June 2026).
  await page.getByLabel('Date from').fill('2026-06-01');
  await page.getByLabel('Date to').fill('2026-06-30');
  await expect(page.getByRole('row', { name: 'EURUSD BUY closed' })).toContainText('Imported');

  const listed = await request.get(
    `/api/history/accounts/${demo!.id}/trades/?from=2026-06-01&to=2026-06-30&sort=oldest`,
    { headers: auth(user) },
  );
  const trades = (await listed.json()).results as Array<{ id: string; instrument: string; source: string }>;
  expect(trades.map((t) => [t.instrument, t.source])).toEqual([
    ['EURUSD', 'import'],
    ['GBPUSD', 'import'],
    ['XAUUSD', 'import'],
    ['GER40', 'import'],
  ]);
  for (const [trade, tag] of [
    [trades[0]!.id, 'breakout'],
    [trades[1]!.id, 'reversal'],
    [trades[2]!.id, 'breakout'],
  ] as const) {
    const res = await request.post('/api/trade_journal/journals/', {
      headers: auth(user),
      data: {
        trade,
        action: 'Closed',
        trade_timeframe: '1H',
        reason: 'From the statement',
        strategy_tag: tag,
      },
    });
    expect(res.status()).toBeLessThan(300);
  }

  await page.getByRole('link', { name: 'Reports' }).click();
  await expect(page).toHaveURL(/\/reports$/);
  const figures = page.getByLabel('Key figures');
  await expect(figures.getByText('Closed trades').locator('xpath=following-sibling::*[1]')).toHaveText('4');
  const calendar = page.getByLabel('P/L calendar');
  await expect(calendar.getByText('P/L calendar: June 2026')).toBeVisible();
  await expect(calendar.getByText('1 trade', { exact: true })).toHaveCount(4);
  const histogram = page.getByLabel('R-multiple distribution');
  // R from the statement's stops: −1.03, +0.76 and +1.04; GER40 had no stop.
  await expect(histogram.getByLabel('Trades per bin')).toHaveText(
    '−1.5R to −1R: 1 trade · +0.5R to +1R: 1 trade · +1R to +1.5R: 1 trade',
  );
  await expect(histogram.getByText(/1 trades without a known risk are not shown/)).toBeVisible();

  await page.getByLabel('Strategy tag', { exact: true }).fill('breakout');
  await page.getByLabel('Strategy tag', { exact: true }).press('Enter');
  await expect(figures.getByText('Closed trades').locator('xpath=following-sibling::*[1]')).toHaveText('2');
  await expect(calendar.getByText('1 trade', { exact: true })).toHaveCount(2);
  await expect(histogram.getByLabel('Trades per bin')).toHaveText(
    '+0.5R to +1R: 1 trade · +1R to +1.5R: 1 trade',
  );
});
