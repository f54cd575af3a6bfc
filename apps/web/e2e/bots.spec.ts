import { expect, signIn, test } from './fixtures';
import { pickOption } from './helpers';

// The e2e server's simulator starts at SIM_START (2026-06-29): the window is the quarter before it.
const WINDOW = { start: '2026-04-01', end: '2026-06-26' };

test('create a bot from a template, a version, a config; launch a backtest and see it complete', async ({
  page,
  user,
}) => {
  test.setTimeout(300_000);
  await signIn(page, user);
  await page.goto('/bots');
  await page.getByRole('link', { name: 'Create New Bot' }).click();
  await page.getByLabel('Bot Name').fill('EMA bot');
  await pickOption(page, page.getByRole('combobox', { name: 'Trading Account', exact: true }), /./);
  await pickOption(
    page,
    page.getByRole('combobox', { name: 'Strategy Template', exact: true }),
    'EMA crossover',
  );
  await page.getByRole('button', { name: 'Create Bot' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'EMA bot' })).toBeVisible();

  // The version form starts from the bot's template, in the lazily loaded code editor.
  await page.getByRole('link', { name: 'Create New Version' }).click();
  await expect(page.locator('.cm-content')).toContainText('EMA crossover (per-bar style)');
  const params = page.getByLabel('Parameters (JSON)');
  const defaults = await params.inputValue();
  expect(JSON.parse(defaults)).toMatchObject({ fast: 12, slow: 26 });
  await params.fill('{bad');
  await page.getByRole('button', { name: 'Create Version' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid JSON in Parameters field. Please correct it.');
  await params.fill(defaults);
  await page.getByRole('button', { name: 'Create Version' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Version Details' })).toBeVisible();
  await expect(page.getByText(/Code hash: [0-9a-f]{64}/)).toBeVisible();

  await page.getByRole('link', { name: 'Configure New Backtest' }).click();
  await page.getByLabel('Label').fill('H1 default');
  await page.getByLabel('Risk JSON').fill('{not json');
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid JSON in Risk JSON field. Please correct it.');
  await page.getByLabel('Risk JSON').fill('{"timeframe": "H1"}');
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(page.getByRole('cell', { name: 'H1 default' })).toBeVisible();

  await page.getByRole('button', { name: 'Launch Backtest' }).click();
  const modal = page.getByRole('dialog', { name: 'Launch Backtest' });
  await modal.getByRole('button', { name: 'Launch' }).click();
  await expect(modal.getByRole('alert')).toHaveText('Start and End dates are required.');
  await modal.getByLabel('Data window start').fill(WINDOW.start);
  await modal.getByLabel('Data window end').fill(WINDOW.end);
  await modal.getByRole('button', { name: 'Launch' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Backtest Run' })).toBeVisible();
  await expect(page.getByTestId('run-status')).toHaveText(/COMPLETED|FAILED/, { timeout: 240_000 });
  await expect(page.getByTestId('run-status'), 'the run failed (its error is on the page)').toHaveText(
    'COMPLETED',
  );
  await expect(page.getByTestId('equity-chart').locator('canvas').first()).toBeVisible();
  await expect(page.getByText('Sharpe', { exact: true })).toBeVisible();
  await expect(page.getByTestId('trades-table').locator('tbody tr').first()).toBeVisible();
  await expect(page.getByTestId('price-chart').locator('canvas').first()).toBeVisible();
});
