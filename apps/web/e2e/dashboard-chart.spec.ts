import path from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { THEME_KEY } from '../src/app/theme';
import { expect, signIn, test, type TestUser } from './fixtures';
import { auth } from './helpers';

/**
 * The dashboard's account strip and chart: the figures show, and a stop dragged on the chart moves
 * the position's stop through the same call as the table's Update SL (a refused one snaps back with
 * the server's reason). Screenshots of the dashboard go to apps/web/e2e/screenshots/ (ignored by git).
 * BTCUSD trades at weekends too, and SIM_START replays a known Monday morning.
 */
const DIR = path.join(import.meta.dirname, 'screenshots');

interface Position {
  id: string;
  stop_loss: number | null;
  entry_price: number | null;
}

/** Opens a BTCUSD BUY at 0.5 % risk with a 500-point stop and a 2R target, through the API. */
async function openBuy(request: APIRequestContext, user: TestUser): Promise<{ accountId: string }> {
  const accounts = await (await request.get('/api/accounts/', { headers: auth(user) })).json();
  const accountId: string = accounts[0].id;
  const details = await (
    await request.get(`/api/accounts/details/${accountId}`, { headers: auth(user) })
  ).json();
  const res = await request.post('/api/trades/execute/', {
    headers: auth(user),
    data: {
      account_id: accountId,
      symbol: 'BTCUSD',
      lot_size: Math.floor(((details.equity * 0.005) / 500) * 100) / 100,
      direction: 'BUY',
      order_type: 'MARKET',
      risk_percent: 0.5,
      stop_loss_distance: 500,
      rr_ratio: 2,
      reason: 'Chart drag test',
      trader: 'Me',
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return { accountId };
}

async function positions(request: APIRequestContext, user: TestUser, accountId: string): Promise<Position[]> {
  const res = await request.get(`/api/trades/open-positions/${accountId}/`, { headers: auth(user) });
  expect(res.status()).toBe(200);
  return (await res.json()).open_positions;
}

/** Drags a chart handle by `dy` pixels with the mouse, in small steps as a hand would. */
async function drag(page: Page, handle: Locator, dy: number): Promise<void> {
  // As a trader would: only once the last confirmation has faded out (its overlay would take the press).
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Mid-screen: at 390 px the floating theme button covers the bottom right corner.
  await handle.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const box = (await handle.boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, y + dy, { steps: 8 });
  await page.mouse.up();
}

/** The price a chart handle stands at. */
const price = async (handle: Locator) => Number(await handle.getAttribute('data-price'));

/** The strip's figure of one label. */
const figure = (page: Page, label: string) =>
  page.getByRole('region', { name: 'Account figures' }).locator(`[data-figure="${label}"] p`).nth(1);

async function openDashboard(page: Page, user: TestUser, scheme: 'light' | 'dark') {
  await signIn(page, user);
  await page.addInitScript(([key, value]) => localStorage.setItem(key!, value!), [THEME_KEY, scheme]);
  await page.goto('/dashboard');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
  // The strip's figures, from the summary: a position is open, so margin and margin level show.
  // The first answer waits on the broker link of a fresh account: generous on a busy machine.
  await expect(figure(page, 'Balance')).toHaveText(/^[\d,]+\.\d\d USD$/, { timeout: 30_000 });
  await expect(figure(page, 'Equity')).toHaveText(/^[\d,]+\.\d\d USD$/);
  await expect(figure(page, 'Margin')).toHaveText(/^[1-9][\d,]*\.\d\d USD$/);
  await expect(figure(page, 'Free margin')).toHaveText(/USD$/);
  await expect(figure(page, 'Margin level')).toHaveText(/^[\d.]+ %$/);
  await expect(figure(page, "Today's realised P/L")).toHaveText(/USD$/);
  await expect(figure(page, 'Open P/L')).toHaveText(/USD$/);
  // The chart: BTCUSD (the open position's symbol) with its stop and target handles on their lines.
  await expect(page.getByRole('combobox', { name: 'Symbol' })).toHaveValue('BTCUSD');
  await expect(page.getByTestId('dashboard-chart').locator('canvas').first()).toBeVisible();
  const stop = page.getByRole('button', { name: /^Stop loss of BUY [\d.]+ BTCUSD/ });
  await expect(stop).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: /^Take profit of BUY [\d.]+ BTCUSD/ })).toBeVisible();
  await expect(page.getByLabel('Loading the chart')).toHaveCount(0);
  return stop;
}

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  test(`at ${width}×${height}: the strip shows figures and dragging the stop line moves the stop`, async ({
    page,
    user,
    request,
  }) => {
    await page.setViewportSize({ width, height });
    const { accountId } = await openBuy(request, user);
    const [before] = await positions(request, user, accountId);
    const stop = await openDashboard(page, user, 'light');
    expect(await price(stop)).toBe(before!.stop_loss);
    // The screenshot before any drag: no notification or refusal over the strip and the chart.
    await page.screenshot({ path: path.join(DIR, `dashboard-${width}-light.png`), fullPage: true });

    // Further down is a wider stop, which the server accepts after the confirmation.
    await stop.scrollIntoViewIfNeeded();
    await drag(page, stop, 40);
    const dialog = page.getByRole('dialog', { name: 'Move Stop Loss' });
    await expect(dialog).toContainText(`Move the stop loss of BUY`);
    const target = Number(/to ([\d.]+)\?/.exec(await dialog.innerText())![1]);
    expect(target).toBeLessThan(before!.stop_loss!);
    await dialog.getByRole('button', { name: 'Move Stop Loss' }).click();
    await expect(page.getByText('Stop loss updated successfully.')).toBeVisible();
    await expect.poll(async () => (await positions(request, user, accountId))[0]!.stop_loss).toBe(target);
    await expect.poll(() => price(stop)).toBe(target);
    // Above the price the server refuses the stop: the line snaps back and the reason shows.
    const chart = (await page.getByTestId('dashboard-chart').boundingBox())!;
    const at = (await stop.boundingBox())!;
    await drag(page, stop, chart.y + 20 - (at.y + at.height / 2));
    await page
      .getByRole('dialog', { name: 'Move Stop Loss' })
      .getByRole('button', { name: 'Move Stop Loss' })
      .click();
    await expect(
      page
        .getByRole('region', { name: 'Chart' })
        .getByRole('alert')
        .filter({ hasText: 'Stop loss must be below the current price' }),
    ).toBeVisible();
    await expect.poll(() => price(stop)).toBe(target);
    expect((await positions(request, user, accountId))[0]!.stop_loss).toBe(target);

    // Cancel leaves the stop where it is.
    await drag(page, stop, 30);
    await page
      .getByRole('dialog', { name: 'Move Stop Loss' })
      .getByRole('button', { name: 'Cancel' })
      .click();
    await expect.poll(() => price(stop)).toBe(target);
  });

  test(`at ${width}×${height}, dark: the dashboard with a position, the chart and the strip`, async ({
    page,
    user,
    request,
  }) => {
    await page.setViewportSize({ width, height });
    await openBuy(request, user);
    await openDashboard(page, user, 'dark');
    await page.screenshot({ path: path.join(DIR, `dashboard-${width}-dark.png`), fullPage: true });
  });
}
