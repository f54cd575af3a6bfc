import { expect, signIn, test } from './fixtures';
import { ROUTES } from './routes';

test('login with the form, wrong password first', async ({ page, user }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('textbox', { name: 'Username' }).fill(user.username);
  await page.locator('input[name="password"]').fill('not-the-password');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toHaveText('No active account found with the given credentials');
  await page.locator('input[name="password"]').fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
});

// One test per route, so that a failure names its route and a slow page cannot starve the others.
for (const [path, title] of ROUTES) {
  test(`${path} renders its screen inside the side navigation`, async ({ page, user }) => {
    await signIn(page, user);
    await page.goto(path);
    await expect(page, path).toHaveURL(new RegExp(`${path.replace(/[/-]/g, '\\$&')}$`));
    await expect(page.getByRole('heading', { level: 1, name: title }).first(), path).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  });
}

test("the side navigation's links lead where the spec says", async ({ page, user }) => {
  await signIn(page, user);
  await page.goto('/dashboard');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [label, path] of [
    ['Manage Accounts', '/accounts'],
    ['Chart Snapshot Configs', '/settings/chart-snapshot-configs'],
    ['Reports', '/reports'],
    ['Analysis', '/analysis'],
    ['Win-Rate Calculator', '/win-rate'],
    ['Trade History', '/select-account-for-history'],
    ['Trading Bots', '/bots'],
    ['Settings', '/settings'],
    ['Dashboard', '/dashboard'],
  ]) {
    await nav.getByRole('link', { name: label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  }
  await expect(page.getByText('Reports are coming', { exact: false })).toHaveCount(0);
});

test('an unknown path redirects to the landing page', async ({ page, user }) => {
  await signIn(page, user);
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Analyze News' })).toBeVisible();
  await page.getByRole('button', { name: 'Analyze News' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please enter some news content to analyze.');
});

test('the theme toggle names the mode it switches to, and the choice survives a reload', async ({
  page,
  user,
}) => {
  await signIn(page, user);
  await page.goto('/dashboard');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  await page.getByRole('button', { name: 'Switch to dark mode' }).click();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('button', { name: 'Switch to light mode' })).toHaveText('Light Mode');
  expect(await page.evaluate(() => localStorage.getItem('app-theme'))).toBe('dark');
  await page.reload();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.getByRole('button', { name: 'Switch to light mode' }).click();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
});

test('logout clears the token and goes to /login', async ({ page, user }) => {
  await signIn(page, user);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
});

test('a 401 from the API removes the token and redirects to /login', async ({ page, user }) => {
  await signIn(page, { ...user, token: 'expired-or-forged-token' });
  // The initial watchlist fetch answers 401 for this token.
  const watchlist = page.waitForResponse(
    (r) => r.url().endsWith('/api/trades/watchlists/') && r.status() === 401,
  );
  await page.goto('/win-rate');
  await watchlist;
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
});

test('add and remove watchlist items, with the spec messages', async ({ page, user }) => {
  await signIn(page, user);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Manage Watchlist' }).click();
  const dialog = page.getByRole('dialog', { name: 'Manage Watchlist' });
  await expect(dialog.getByText('Your watchlist is empty', { exact: false })).toBeVisible();

  await dialog.getByLabel('Instrument').fill('eurusd');
  await expect(dialog.getByLabel('Instrument')).toHaveValue('EURUSD');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Both instrument and exchange are required.');

  await dialog.getByLabel('Exchange').fill('fx');
  await dialog.getByRole('button', { name: 'Add' }).click();
  const table = dialog.getByRole('table', { name: 'Watchlist items' });
  await expect(table.getByRole('row', { name: /EURUSD\s+FX/ })).toBeVisible();
  await expect(dialog.getByLabel('Instrument')).toHaveValue('');
  // The side panel shows it too.
  await expect(page.getByLabel('Watchlist panel').getByText('EURUSD')).toBeVisible();

  await dialog.getByLabel('Instrument').fill('EURUSD');
  await dialog.getByLabel('Exchange').fill('FX');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'This instrument/exchange combination already exists in your watchlist.',
  );

  await dialog.getByRole('button', { name: 'Remove EURUSD FX' }).click();
  await expect(page.getByText('Item deleted successfully')).toBeVisible();
  await expect(dialog.getByText('Your watchlist is empty', { exact: false })).toBeVisible();
});

test('global items show with the (Global) label to every user', async ({ page, user, request }) => {
  const adminToken = (
    await (
      await request.post('/api/token/', { data: { username: 'admin', password: 'admin-password-1' } })
    ).json()
  ).access;
  const res = await request.post('/api/trades/watchlists/', {
    data: { instrument: 'US100', exchange: 'CFD', is_global: true },
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(res.status()).toBe(201);
  const id = (await res.json()).id;
  try {
    await signIn(page, user);
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Manage Watchlist' }).click();
    const row = page.getByRole('dialog').getByRole('row', { name: /US100/ });
    await expect(row.getByText('(Global)')).toBeVisible();
    await expect(row.getByRole('button', { name: /Remove/ })).toHaveCount(0);
  } finally {
    await request.delete(`/api/trades/watchlists/${id}/`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
  }
});

test('on a phone the opened navigation keeps Logout clear of the floating theme button', async ({
  page,
  user,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, user);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  // The navbar slides in: measure once it has settled fully on screen.
  await expect(page.getByRole('button', { name: 'Logout' })).toBeInViewport({ ratio: 1 });
  await page.waitForTimeout(400);
  const logout = (await page.getByRole('button', { name: 'Logout' }).boundingBox())!;
  const toggle = (await page.getByRole('button', { name: /^Switch to (dark|light) mode$/ }).boundingBox())!;
  const overlaps =
    logout.x < toggle.x + toggle.width &&
    toggle.x < logout.x + logout.width &&
    logout.y < toggle.y + toggle.height &&
    toggle.y < logout.y + logout.height;
  expect(overlaps, 'the theme button covers Logout').toBe(false);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('login shows "Login failed" when the server gives no detail', async ({ page, user }) => {
  await page.route('**/api/token/', (route) => route.fulfill({ status: 400, json: {} }));
  await page.goto('/login');
  await page.getByLabel(/^Username/).fill(user.username);
  await page.getByLabel(/^Password/).fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toHaveText('Login failed');
  await expect(page).toHaveURL(/\/login$/);
});

test('a watchlist that fails to load or is not a list reads as empty', async ({ page, user }) => {
  await signIn(page, user);
  await page.route('**/api/trades/watchlists/', (route) =>
    route.fulfill({ status: 200, json: { results: [{ id: 'x', instrument: 'EURUSD', exchange: 'FX' }] } }),
  );
  await page.goto('/dashboard');
  const panel = page.getByLabel('Watchlist panel');
  await expect(panel.getByText('Nothing watched yet.')).toBeVisible();
  await expect(panel.getByText('EURUSD')).toHaveCount(0);

  await page.unroute('**/api/trades/watchlists/');
  await page.route('**/api/trades/watchlists/', (route) => route.fulfill({ status: 404, json: {} }));
  await page.reload();
  await expect(panel.getByText('Nothing watched yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Manage Watchlist' }).click();
  await expect(page.getByRole('dialog', { name: 'Manage Watchlist' })).toContainText(
    'Failed to fetch watchlist items. Please try again.',
  );
});

test('the Reports link leads to the reports, which explain what to do while there are no trades', async ({
  page,
  user,
}) => {
  await signIn(page, user);
  await page.goto('/dashboard');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await expect(page).toHaveURL(/\/reports$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await expect(page.getByText('No closed trades match these filters.')).toBeVisible();
});
