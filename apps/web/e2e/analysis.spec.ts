import { expect, signIn, test } from './fixtures';
import { pickOption } from './helpers';

/*
 * The e2e server downloads a week of simulated M1 per instrument (ANALYSIS_HISTORY_DAYS=7) up to its
 * SIM_START, Monday 2026-06-29 10:30 UTC: the jobs below analyse 22–29 June.
 */

test('add an instrument, run each analysis and read its table, key figures and chart', async ({
  page,
  user,
}) => {
  test.setTimeout(180_000);
  await signIn(page, user);
  await page.goto('/analysis');
  await expect(page.getByRole('heading', { name: 'Historical Data Analysis' })).toBeVisible();

  // Validation text of the add-instrument form, then a real add.
  await page.getByRole('button', { name: 'Add Instrument' }).click();
  await expect(page.getByRole('alert')).toHaveText('Instrument symbol is required.');
  await page.getByLabel('Instrument symbol').fill(' eurusd ');
  await page.getByRole('button', { name: 'Add Instrument' }).click();
  const row = page.getByTestId('instrument-EURUSD');
  await expect(row).toBeVisible();
  // The list refreshes by itself (after 2 s, then every 10 s) until the download is done.
  await expect(row.getByText('AVAILABLE')).toBeVisible({ timeout: 60_000 });

  // The job form's own checks.
  await page.getByRole('button', { name: 'Submit Analysis' }).click();
  await expect(page.getByRole('alert')).toHaveText('All fields are required.');
  await pickOption(page, page.getByRole('combobox', { name: 'Instrument', exact: true }), 'EURUSD');
  await page.getByLabel('Start date').fill('2026-06-29');
  await page.getByLabel('End date').fill('2026-06-22');
  await page.getByRole('button', { name: 'Submit Analysis' }).click();
  await expect(page.getByRole('alert')).toHaveText('End date must be after start date.');
  await page.getByLabel('Start date').fill('2026-06-22');
  await page.getByLabel('End date').fill('2026-06-29');

  const types = [
    ['Trend Continuation', 'Continuation %'],
    ['VWAP Conditional', 'Asia closed above vwap: London up %'],
    ['ATR Scenario', 'Best long cell'],
  ] as const;
  for (const [label, keyFigure] of types) {
    await page.goto('/analysis');
    await pickOption(page, page.getByRole('combobox', { name: 'Instrument', exact: true }), 'EURUSD');
    await pickOption(page, page.getByRole('combobox', { name: 'Analysis type' }), label);
    await page.getByLabel('Start date').fill('2026-06-22');
    await page.getByLabel('End date').fill('2026-06-29');
    await page.getByRole('button', { name: 'Submit Analysis' }).click();
    await expect(page.getByText(/Job [0-9a-f]{8} submitted\./)).toBeVisible();
    const jobs = page.getByRole('table', { name: 'Submitted jobs' });
    const link = jobs.getByRole('row').filter({ hasText: label }).first().getByRole('link');
    await link.click();
    await expect(page).toHaveURL(/\/analysis\/[0-9a-f-]{36}$/);
    // Polled every 3 s until it finishes.
    await expect(page.getByText('Completed Successfully')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('heading', { name: label })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Key figures' }).getByText(keyFigure)).toBeVisible();
    await expect(
      page
        .getByRole('table')
        .filter({ has: page.getByRole('columnheader') })
        .first(),
    ).toBeVisible();
    const chart = page.locator('img[src^="data:image/svg+xml"]').first();
    await expect(chart).toBeVisible();
    expect(await chart.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await expect(page.getByRole('table', { name: 'Definitions' })).toBeVisible();
    if (label === 'ATR Scenario') {
      // The simulated week has resolved entries, so the best cells are listed with their links.
      await page.getByRole('link', { name: 'Open in calculator' }).first().click();
      await expect(page).toHaveURL(/\/win-rate\?/);
      await expect(page.getByText('From an ATR scenario analysis')).toBeVisible();
      await page.goBack();
    }
    await page.getByRole('link', { name: '← Back to Analysis' }).click();
    await expect(page).toHaveURL(/\/analysis$/);
  }
});

test('another user’s job page says Job Not Found.', async ({ page, user }) => {
  await signIn(page, user);
  await page.goto('/analysis/00000000-0000-0000-0000-000000000000');
  await expect(page.getByText('Job Not Found.')).toBeVisible();
  await expect(page.getByRole('link', { name: '← Back to Analysis' })).toBeVisible();
});
