import type { APIRequestContext } from '@playwright/test';
import { createUser, expect, signIn, test, type TestUser } from './fixtures';
import { auth, pickOption } from './helpers';

const configs = async (request: APIRequestContext, u: TestUser) =>
  (await (await request.get('/api/chart-snapshots/configs/', { headers: auth(u) })).json()) as Array<{
    id: string;
    name: string;
    is_global: boolean;
    indicator_settings: { emas: { periods: number[]; overrides: unknown[] } };
  }>;

test('create, edit (add an EMA period), view as another user and delete a template', async ({
  page,
  request,
  user,
  browser,
}) => {
  await signIn(page, user);
  await page.goto('/settings');
  await page.getByRole('link', { name: 'Chart Snapshot Configurations' }).click();
  await expect(page).toHaveURL(/\/settings\/chart-snapshot-configs$/);
  await expect(page.getByRole('heading', { name: 'Chart Snapshot Configs' })).toBeVisible();

  // Create: the name is required; the spec's defaults are there; global makes it shared.
  await page.getByRole('button', { name: 'Create New Indicator Template' }).click();
  const form = page.getByRole('dialog', { name: 'Create New Indicator Template' });
  await form.getByRole('button', { name: 'Create Template' }).click();
  await expect(form.getByText('Template name is required.')).toBeVisible();
  const name = `Swing ${Date.now()}`;
  await form.getByRole('textbox', { name: 'Template Name' }).fill(name);
  await form.getByRole('checkbox', { name: 'Global (visible to all users)' }).check();
  await expect(form.getByRole('textbox', { name: 'Period 1', exact: true })).toHaveValue('21');
  await expect(form.getByRole('checkbox', { name: 'Enable RSI' })).not.toBeChecked();
  await expect(form.getByRole('checkbox', { name: 'Enable DMI' })).toBeChecked();
  await form.getByRole('checkbox', { name: 'Enable MACD' }).check();
  await form.getByRole('button', { name: 'Create Template' }).click();
  await expect(form).toBeHidden();
  const table = page.getByRole('table', { name: 'Indicator templates' });
  const row = table.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('Global');

  // Edit: add a fourth EMA period with its own colour; the stored overrides follow, in rgb.
  await row.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Indicator Template' });
  await edit.getByRole('button', { name: 'Add EMA Period' }).click();
  await edit.getByRole('textbox', { name: 'Period 4', exact: true }).fill('200');
  await edit.getByRole('textbox', { name: 'Period 4 Colour' }).fill('#ff0000');
  await edit.getByRole('textbox', { name: 'Period 2', exact: true }).fill('');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit).toBeHidden();
  const saved = (await configs(request, user)).find((c) => c.name === name)!;
  expect(saved.indicator_settings.emas.periods).toEqual([21, null, 100, 200]);
  expect(saved.indicator_settings.emas.overrides).toHaveLength(4);
  expect(saved.indicator_settings.emas.overrides[3]).toMatchObject({ 'Plot.color': 'rgb(255, 0, 0)' });

  // Another user sees the global template, marked, with View only.
  const other = await createUser(request, 'viewer');
  const ctx = await browser.newContext();
  const page2 = await ctx.newPage();
  await signIn(page2, other);
  await page2.goto('/settings/chart-snapshot-configs');
  const theirRow = page2
    .getByRole('table', { name: 'Indicator templates' })
    .getByRole('row', { name: new RegExp(name) });
  await expect(theirRow).toContainText('Global');
  await expect(theirRow.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(theirRow.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await theirRow.getByRole('button', { name: 'View' }).click();
  const view = page2.getByRole('dialog', { name: 'View Indicator Template' });
  await expect(view.getByRole('textbox', { name: 'Period 4', exact: true })).toHaveValue('200');
  await expect(view.getByRole('button', { name: 'Save Changes' })).toHaveCount(0);
  await view.getByRole('button', { name: 'Cancel' }).click();
  await ctx.close();

  // Delete asks for confirmation, then the row goes.
  await row.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: `Delete ${name}?` })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByText('Configuration deleted successfully')).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('journal a trade with a template and two timeframes, then see both charts in the trade panel', async ({
  page,
  request,
  user,
}) => {
  const [account] = (await (await request.get('/api/accounts/', { headers: auth(user) })).json()) as Array<{
    id: string;
  }>;
  const details = await (
    await request.get(`/api/accounts/details/${account!.id}`, { headers: auth(user) })
  ).json();
  const trade = await request.post('/api/trades/execute/', {
    headers: auth(user),
    data: {
      account_id: account!.id,
      symbol: 'BTCUSD',
      lot_size: Math.floor(((details.equity * 0.005) / 500) * 100) / 100,
      direction: 'BUY',
      order_type: 'MARKET',
      risk_percent: 0.5,
      stop_loss_distance: 500,
      rr_ratio: 2,
      reason: 'Trend continuation',
      trader: 'Me',
    },
  });
  expect(trade.status(), await trade.text()).toBe(200);
  const tradeId = (await trade.json()).trade_id as string;
  const created = await request.post('/api/chart-snapshots/configs/', {
    headers: auth(user),
    data: { name: 'Trend', is_global: false, indicator_settings: { rsi: { enabled: true } } },
  });
  expect(created.status()).toBe(201);

  // Hold the task's answers a moment, so the "generating" state can be seen before the images.
  await page.route('**/api/chart-snapshots/tasks/**', async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await signIn(page, user);
  await page.goto(`/trades/history/${tradeId}`);
  const panel = page.getByLabel('Details of BTCUSD trade', { exact: true });
  await panel.getByRole('button', { name: 'Trade Journals (0)' }).click();
  await panel.getByRole('button', { name: 'Add Journal Entry' }).click();
  const form = page.getByRole('dialog', { name: 'Journal This Trade' });
  await form.getByRole('textbox', { name: 'Reason' }).fill('Higher low on the hourly');
  await pickOption(page, form.getByRole('combobox', { name: 'Snapshot Template' }), 'Trend');
  await expect(form.getByRole('combobox', { name: 'Snapshot Symbol' })).toHaveValue('BTCUSD');
  // Defaults are 5m, 15m, 1h, 4h, 1D: at five, the others are locked; keep 15m and 1h.
  await expect(form.getByText('Maximum 5 timeframes selected.')).toBeVisible();
  await expect(form.getByRole('checkbox', { name: '1m', exact: true })).toBeDisabled();
  for (const tf of ['5m', '4h', '1D']) await form.getByRole('checkbox', { name: tf, exact: true }).uncheck();
  await form.getByRole('button', { name: 'Submit Journal' }).click();
  await expect(page.getByText('Journal entry submitted successfully.')).toBeVisible();
  await expect(form).toBeHidden();

  await expect(panel.getByText('Higher low on the hourly')).toBeVisible();
  await expect(panel.getByRole('status', { name: 'Generating chart snapshots' })).toBeVisible();
  await expect(panel.getByRole('button', { name: /^Enlarge Attachment/ })).toHaveCount(2, {
    timeout: 20_000,
  });
  await expect(panel.getByRole('status', { name: 'Generating chart snapshots' })).toHaveCount(0);
  await panel.getByRole('button', { name: /^Enlarge Attachment 2/ }).click();
  const overlay = page.getByRole('dialog', { name: /Attachment 2/ });
  const img = overlay.getByRole('img', { name: /^Attachment 2/ });
  await expect(img).toBeVisible();
  expect(await img.evaluate((el: HTMLImageElement) => [el.naturalWidth, el.naturalHeight])).toEqual([
    1600, 900,
  ]);
});
