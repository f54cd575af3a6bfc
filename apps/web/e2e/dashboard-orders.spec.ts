import path from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, signIn, test, type TestUser } from './fixtures';
import { auth } from './helpers';

/**
 * The dashboard's Open Positions and Pending Orders at a desktop and a phone width: every column and
 * action of a position in view without scrolling sideways at 1440 px (a card per position at 390 px),
 * and a limit order listed in Pending Orders and cancelled from there. BTCUSD trades at weekends too,
 * so the test does not depend on the simulated day.
 */
const SYMBOL = 'BTCUSD';
/** Two trades, a page with a live chart and a cancel: more than the default on a busy machine. */
const SLOW_MS = 90_000;
const SL_DISTANCE = 500;
const SHOTS = path.join(import.meta.dirname, 'screenshots');
const COLUMNS = [
  'Position ID',
  'Instrument',
  'Direction',
  'Lot Size',
  'Entry Price',
  'Stop Loss',
  'Profit Target',
  'RR Ratio',
  'Current P/L',
  'Created At',
  'Actions',
];

async function demoAccountId(request: APIRequestContext, user: TestUser): Promise<string> {
  const res = await request.get('/api/accounts/', { headers: auth(user) });
  expect(res.status()).toBe(200);
  const accounts = (await res.json()) as Array<{ id: string; platform: string }>;
  const demo = accounts.find((a) => a.platform === 'SIM');
  expect(demo, 'the Demo SIM account every user gets').toBeTruthy();
  return demo!.id;
}

/** Places a BTCUSD order at 0.5 % risk over a 500-dollar stop (the server's own sizing) and returns its trade id. */
async function place(
  request: APIRequestContext,
  user: TestUser,
  accountId: string,
  order: { order_type: 'MARKET' } | { order_type: 'LIMIT'; limit_price: number },
): Promise<string> {
  const details = await (
    await request.get(`/api/accounts/details/${accountId}`, { headers: auth(user) })
  ).json();
  const res = await request.post('/api/trades/execute/', {
    headers: auth(user),
    data: {
      account_id: accountId,
      symbol: SYMBOL,
      lot_size: Math.floor(((details.equity * 0.005) / SL_DISTANCE) * 100) / 100,
      direction: 'BUY',
      risk_percent: 0.5,
      stop_loss_distance: SL_DISTANCE,
      rr_ratio: 2,
      reason: 'e2e dashboard orders',
      ...order,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).trade_id as string;
}

/** Opens a position and places a BUY limit 20 % under its entry, far from any fill during the test. */
async function positionAndLimit(request: APIRequestContext, user: TestUser) {
  const accountId = await demoAccountId(request, user);
  await place(request, user, accountId, { order_type: 'MARKET' });
  const open = await request.get(`/api/trades/open-positions/${accountId}/`, { headers: auth(user) });
  const [position] = (await open.json()).open_positions as Array<{ entry_price: number }>;
  const limit = Math.round(position!.entry_price * 0.8 * 100) / 100;
  const tradeId = await place(request, user, accountId, { order_type: 'LIMIT', limit_price: limit });
  return { accountId, limit, tradeId };
}

/** The page is no wider than the window, and nothing inside `scope` scrolls sideways. */
async function expectNoSidewaysScroll(page: Page, scope: Locator): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  const scrolling = await scope.evaluate((root) =>
    [root, ...root.querySelectorAll('*')]
      .filter((el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX))
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.tagName}.${el.className} ${el.scrollWidth}>${el.clientWidth}`),
  );
  expect(scrolling, 'elements that scroll sideways').toEqual([]);
}

async function cancelFromPendingOrders(page: Page, limit: number): Promise<void> {
  const pending = page.getByRole('region', { name: 'Pending Orders' });
  await expect(pending.getByText(limit.toFixed(5))).toBeVisible();
  await pending.getByRole('button', { name: `Cancel ${SYMBOL} order` }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel order' });
  await expect(dialog).toContainText(`Cancel the BUY`);
  await expect(dialog).toContainText(`${SYMBOL} limit at ${limit.toFixed(5)}`);
  await dialog.getByRole('button', { name: 'Cancel Order' }).click();
  await expect(page.getByText('Order cancelled successfully.')).toBeVisible();
  await expect(pending.getByText('No pending orders to show')).toBeVisible();
}

test('at 1440×900 every column and action of Open Positions is in view; a limit order is cancelled from Pending Orders', async ({
  page,
  request,
  user,
}) => {
  test.setTimeout(SLOW_MS);
  const { limit, tradeId } = await positionAndLimit(request, user);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, user);
  await page.goto('/dashboard');

  const table = page.getByRole('table', { name: 'Open positions' });
  // The first load of the dashboard (chart included) can take a while on a busy machine.
  await expect(table.locator('tbody tr')).toHaveCount(1, { timeout: 30_000 });
  // Scrolling down to the table is fine; scrolling sideways to reach a column is what must not be needed.
  // (A plain scroll: the live chart keeps the page busy, so waiting for a stable element can time out.)
  const row = table.locator('tbody tr').first();
  await row.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  for (const name of COLUMNS)
    await expect(table.getByRole('columnheader', { name, exact: true })).toBeInViewport({ ratio: 1 });
  const cells = row.getByRole('cell');
  await expect(cells).toHaveCount(COLUMNS.length);
  for (let i = 0; i < COLUMNS.length; i++) await expect(cells.nth(i)).toBeInViewport({ ratio: 1 });
  await expect(cells.nth(1)).toHaveText(SYMBOL);
  await expect(cells.nth(2)).toHaveText('BUY');
  await expect(cells.nth(8)).toHaveText(/^-?\d+\.\d{2}$|K$/);
  await expect(row.getByRole('button', { name: `Close ${SYMBOL}` })).toBeInViewport({ ratio: 1 });
  await expect(row.getByRole('button', { name: `More actions for ${SYMBOL}` })).toBeInViewport({ ratio: 1 });
  await expectNoSidewaysScroll(page, page.getByRole('region', { name: 'Open Positions' }));

  const pendingTable = page.getByRole('table', { name: 'Pending orders' });
  const order = pendingTable.locator('tbody tr');
  await expect(order).toHaveCount(1);
  for (const text of [SYMBOL, 'BUY', limit.toFixed(5), (limit - SL_DISTANCE).toFixed(5)])
    await expect(order).toContainText(text);
  await page.screenshot({ path: path.join(SHOTS, 'dashboard-orders-1440.png'), fullPage: true });

  await cancelFromPendingOrders(page, limit);
  const history = await request.get(`/api/history/trades/${tradeId}/`, { headers: auth(user) });
  expect((await history.json()).trade_status).toBe('cancelled');
  // The position was left alone.
  await expect(table.locator('tbody tr')).toHaveCount(1);
});

test('at 390×844 positions are cards with instrument, direction, P/L and actions; a limit order is cancelled', async ({
  page,
  request,
  user,
}) => {
  test.setTimeout(SLOW_MS);
  const { limit } = await positionAndLimit(request, user);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, user);
  await page.goto('/dashboard');

  const cards = page.getByRole('list', { name: 'Open positions' });
  const card = cards.getByRole('listitem');
  await expect(card).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByRole('table', { name: 'Open positions' })).toHaveCount(0);
  await card.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await expect(card).toBeInViewport({ ratio: 1 });
  await expect(card).toContainText(SYMBOL);
  await expect(card).toContainText('BUY');
  await expect(card).toContainText('Current P/L');
  await expect(card.getByRole('button', { name: `Close ${SYMBOL}` })).toBeInViewport({ ratio: 1 });
  await expect(card.getByRole('button', { name: `More actions for ${SYMBOL}` })).toBeInViewport({ ratio: 1 });
  await expectNoSidewaysScroll(page, page.getByRole('region', { name: 'Open Positions' }));

  const orders = page.getByRole('list', { name: 'Pending orders' }).getByRole('listitem');
  await expect(orders).toHaveCount(1);
  await expect(orders).toContainText(limit.toFixed(5));
  await page.screenshot({ path: path.join(SHOTS, 'dashboard-orders-390.png'), fullPage: true });
  await cancelFromPendingOrders(page, limit);
});
