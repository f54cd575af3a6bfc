import type { APIRequestContext } from '@playwright/test';
import { expect, signIn, test, type TestUser } from './fixtures';
import { auth, pickOption, png, roundTrip } from './helpers';

async function accounts(request: APIRequestContext, u: TestUser) {
  return (await (await request.get('/api/accounts/', { headers: auth(u) })).json()) as Array<{
    id: string;
    name: string;
  }>;
}

test('review trades: accounts, quick ranges, sorts, details, order history, journals and images', async ({
  page,
  request,
  user,
}) => {
  const [demo] = await accounts(request, user);
  expect(demo).toBeTruthy();
  const second = await request.post('/api/accounts/create/', {
    headers: auth(user),
    data: { name: 'Swing', platform: 'SIM' },
  });
  expect(second.status()).toBeLessThan(300);
  const swingId = (await second.json()).id as string;

  const first = await roundTrip(request, user, demo!.id, 'BUY', 'Breakout retest');
  await roundTrip(request, user, demo!.id, 'SELL', 'Fade the spike');
  await roundTrip(request, user, swingId, 'BUY', 'Swing entry');

  const journal = await request.post('/api/trade_journal/journals/', {
    headers: auth(user),
    data: {
      trade: first,
      action: 'Opened Position',
      trade_timeframe: '1H',
      reason: 'Clean retest of the range high',
      strategy_tag: 'breakout',
    },
  });
  expect(journal.status()).toBeLessThan(300);
  const upload = await request.post('/api/trade_journal/attachments/', {
    headers: auth(user),
    multipart: {
      journal: (await journal.json()).id,
      files: { name: 'chart.png', mimeType: 'image/png', buffer: png() },
    },
  });
  expect(upload.status()).toBeLessThan(300);

  await signIn(page, user);
  await page.goto('/select-account-for-history');
  await page.getByRole('link', { name: 'View trade history of Demo' }).click();
  await expect(page).toHaveURL(new RegExp(`/accounts/${demo!.id}/trade-history$`));
  await expect(page.getByRole('heading', { name: 'Trade History' })).toBeVisible();

  const table = page.getByRole('table', { name: 'Trades' });
  const rows = table.getByRole('row', { name: /^BTCUSD/ });
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'This Week' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByLabel('Performance for the range')).toContainText('Win rate');

  // Newest first by default, then the other sorts.
  await expect(rows.first()).toContainText('SELL');
  const sort = page.getByRole('combobox', { name: 'Sort', exact: true });
  for (const [label, firstDirection] of [
    ['Oldest', 'BUY'],
    ['Newest', 'SELL'],
  ] as const) {
    await pickOption(page, sort, label);
    await expect(rows.first()).toContainText(firstDirection);
  }
  const pnl = async () =>
    (
      await rows.evaluateAll((els) => els.map((e) => e.querySelectorAll('[role=cell]')[5]?.textContent ?? ''))
    ).map(Number);
  for (const [label, dir] of [
    ['P/L High-Low', -1],
    ['P/L Low-High', 1],
    ['Instrument A-Z', 0],
    ['Instrument Z-A', 0],
  ] as const) {
    await pickOption(page, sort, label);
    await expect(sort).toHaveValue(label);
    await expect(rows).toHaveCount(2);
    if (dir !== 0) {
      const v = await pnl();
      expect(v).toEqual([...v].sort((a, b) => dir * (a - b)));
    }
  }

  // Today keeps today's trades; a custom range in the future clears the quick filter and finds none.
  await page.getByRole('button', { name: 'Today' }).click();
  await expect(page.getByRole('button', { name: 'Today' })).toHaveAttribute('aria-pressed', 'true');
  await expect(rows).toHaveCount(2);
  const nextYear = String(new Date().getFullYear() + 1);
  await page.getByLabel('Date to').fill(`${nextYear}-12-31`);
  await page.getByLabel('Date from').fill(`${nextYear}-01-01`);
  await expect(page.getByRole('button', { name: 'Today' })).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByRole('button', { name: 'This Week' })).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByText('No trades found for this account.')).toBeVisible();
  await page.getByRole('button', { name: 'This Week' }).click();
  await expect(rows).toHaveCount(2);

  // Details of the first (BUY) trade: fields, order history and the journal with its image.
  await pickOption(page, sort, 'Oldest');
  await rows
    .first()
    .getByRole('button', { name: /^Details of BTCUSD/ })
    .click();
  const panel = page.getByLabel('Details of BTCUSD trade', { exact: true });
  await expect(panel).toContainText('Breakout retest');
  await expect(panel.getByText('closed', { exact: true })).toBeVisible();
  await panel.getByRole('button', { name: 'Order History' }).click();
  const orders = panel.getByRole('table', { name: 'Order history' });
  await expect(orders.getByRole('row')).toHaveCount(3); // header, the opening fill and the close
  await panel.getByRole('button', { name: 'Trade Journals (1)' }).click();
  await expect(panel.getByText('Clean retest of the range high')).toBeVisible();
  await expect(panel.getByText('breakout', { exact: true })).toBeVisible();

  const thumb = panel.getByRole('button', { name: /^Enlarge Attachment 1/ });
  const overlay = page.getByRole('dialog', { name: /Attachment 1/ });
  await thumb.click();
  await expect(overlay.getByRole('img', { name: /^Attachment 1/ })).toBeVisible();
  await overlay.getByRole('button', { name: 'Close image' }).click();
  await expect(overlay).toBeHidden();
  await thumb.click();
  await expect(overlay).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(overlay).toBeHidden();
  await thumb.click();
  await expect(overlay).toBeVisible();
  await page.mouse.click(5, 5); // the darkened background
  await expect(overlay).toBeHidden();

  // A past trade can be journaled from its panel, with the same form as after a trade.
  await panel.getByRole('button', { name: 'Add Journal Entry' }).click();
  const form = page.getByRole('dialog', { name: 'Journal This Trade' });
  await form.getByRole('button', { name: 'Submit Journal' }).click();
  await expect(form.getByText('Please enter a reason before submitting the journal.')).toBeVisible();
  await form.getByRole('textbox', { name: 'Reason' }).fill('Review: exit was early');
  await form.getByRole('button', { name: 'Submit Journal' }).click();
  await expect(form).toBeHidden();
  await expect(panel.getByRole('button', { name: 'Trade Journals (2)' })).toBeVisible();
  await expect(panel.getByText('Review: exit was early')).toBeVisible();

  // The account switcher goes to the other account's history.
  await page.getByRole('combobox', { name: 'Account', exact: true }).click();
  await page.getByRole('option', { name: /^Swing/ }).click();
  await expect(page).toHaveURL(new RegExp(`/accounts/${swingId}/trade-history$`));
  await expect(rows).toHaveCount(1);

  // The specific trade page shows the same panel.
  await page.goto(`/trades/history/${first}`);
  await expect(page.getByRole('heading', { name: 'Specific Trade History' })).toBeVisible();
  await expect(page.getByLabel('Details of BTCUSD trade', { exact: true })).toContainText('Breakout retest');
});

test('the specific trade page explains a missing or unknown trade id', async ({ page, user }) => {
  await signIn(page, user);
  await page.goto('/trades/history');
  await expect(page.getByText('No Trade ID provided.')).toBeVisible();
  await page.goto('/trades/history/00000000-0000-4000-8000-000000000000');
  await expect(page.getByText('Failed to fetch trade details')).toBeVisible();
});
