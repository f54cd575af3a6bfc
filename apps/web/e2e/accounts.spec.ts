import type { APIRequestContext, Page, WebSocket } from '@playwright/test';
import { expect, signIn, test, type TestUser } from './fixtures';
import { auth } from './helpers';

const NO_BRIDGE = 'MT5 is not available: no MT5 bridge is configured on this server (MT5_BRIDGE_URL).';

const CTRADER_NOT_CONFIGURED =
  'cTrader is not configured on this server: set CTRADER_CLIENT_ID, CTRADER_CLIENT_SECRET and CTRADER_REDIRECT_URI (see docs/ctrader.md).';

async function createMt5(request: APIRequestContext, user: TestUser, name: string) {
  const res = await request.post('/api/accounts/create/', {
    headers: auth(user),
    data: {
      name,
      platform: 'MT5',
      broker: 'IC Markets',
      account_number: '51234567',
      password: 'broker-secret-1',
      broker_server: 'ICMarketsSC-Demo',
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string; name: string };
}

/**
 * The browser logs every non-2xx response as a console error; the fixture tolerates 4xx only. A
 * server without an MT5 bridge answers Connect with 502, which the app shows: drop exactly that entry.
 */
function expectOneBadGateway(consoleErrors: string[]) {
  const i = consoleErrors.findIndex((e) => /status of 502/.test(e));
  expect(i, 'the 502 of the MT5 connect').toBeGreaterThanOrEqual(0);
  consoleErrors.splice(i, 1);
}

const card = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

test('add a simulated and an MT5 account, then connect both', async ({ page, user, consoleErrors }) => {
  await signIn(page, user);
  await page.goto('/accounts');
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Accounts' })).toBeVisible();

  // Every user starts with the Demo simulated account, read live from the simulator.
  const demo = card(page, 'Demo');
  await expect(demo.getByText('Simulated')).toBeVisible();
  await expect(demo.getByLabel('Balance')).toHaveText('10,000.00 USD');

  // A simulated account with its own currency, balance and leverage.
  await page.getByRole('button', { name: 'Add New Account' }).click();
  const add = page.getByRole('dialog', { name: 'Add New Account' });
  await add.getByRole('button', { name: 'Add Account' }).click();
  await expect(add.getByText('This field is required.')).toHaveCount(1);
  await add.getByRole('textbox', { name: 'Name', exact: true }).fill('Swing SIM');
  await add.getByRole('combobox', { name: 'Currency' }).click();
  await page.getByRole('option', { name: 'EUR', exact: true }).click();
  await add.getByRole('textbox', { name: 'Starting balance' }).fill('25000');
  await add.getByRole('textbox', { name: 'Leverage' }).fill('30');
  await add.getByRole('button', { name: 'Add Account' }).click();
  await expect(add).toBeHidden();
  const sim = card(page, 'Swing SIM');
  await expect(sim.getByLabel('Balance')).toHaveText('25,000.00 EUR');
  await expect(sim.getByLabel('Equity')).toHaveText('25,000.00 EUR');
  await sim.getByRole('button', { name: 'Connect' }).click();
  await expect(sim.getByRole('status')).toContainText('Simulated account: always connected.');
  await expect(sim.getByRole('status').getByLabel('Balance')).toHaveText('25,000.00 EUR');

  // MT5 needs its account number, password and broker server before anything is sent.
  await page.getByRole('button', { name: 'Add New Account' }).click();
  await add.getByRole('textbox', { name: 'Name', exact: true }).fill('FTMO MT5');
  await add.getByRole('combobox', { name: 'Platform' }).click();
  await page.getByRole('option', { name: 'MT5', exact: true }).click();
  await add.getByRole('button', { name: 'Add Account' }).click();
  await expect(add.getByText('This field is required.')).toHaveCount(3);
  await add.getByRole('textbox', { name: 'Broker', exact: true }).fill('FTMO');
  await add.getByRole('textbox', { name: 'Account number' }).fill('51234567');
  await add.getByRole('textbox', { name: 'Password' }).fill('broker-secret-1');
  await add.getByRole('textbox', { name: 'Broker server' }).fill('FTMO-Demo');
  await add.getByRole('button', { name: 'Add Account' }).click();
  await expect(add).toBeHidden();
  const mt5 = card(page, 'FTMO MT5');
  await expect(mt5.getByText('MT5', { exact: true })).toBeVisible();
  await expect(mt5.getByText('FTMO · 51234567 @ FTMO-Demo')).toBeVisible();

  // The password is stored but never sent back.
  const listed = await (await page.request.get('/api/accounts/', { headers: auth(user) })).text();
  expect(listed).toContain('FTMO MT5');
  expect(listed).not.toContain('broker-secret-1');

  // No MT5 bridge runs here: Connect shows the server's reason (it is preferred over "Failed to connect to MT5.").
  await mt5.getByRole('button', { name: 'Connect' }).click();
  await expect(mt5.getByRole('alert')).toHaveText(NO_BRIDGE);
  expectOneBadGateway(consoleErrors);
});

test('a cTrader account says why its login cannot open when cTrader is not configured', async ({
  page,
  user,
  consoleErrors,
}) => {
  await signIn(page, user);
  await page.goto('/accounts');
  await page.getByRole('button', { name: 'Add New Account' }).click();
  const add = page.getByRole('dialog', { name: 'Add New Account' });
  await add.getByRole('textbox', { name: 'Name', exact: true }).fill('Spotware demo');
  await add.getByRole('combobox', { name: 'Platform' }).click();
  await page.getByRole('option', { name: 'cTrader', exact: true }).click();
  await expect(add.getByRole('textbox', { name: 'Account number' })).toHaveCount(0);
  await add.getByRole('textbox', { name: 'Broker', exact: true }).fill('Pepperstone');
  await add.getByRole('button', { name: 'Add Account' }).click();
  await expect(add).toBeHidden();
  const ct = card(page, 'Spotware demo');
  await expect(ct.getByText('cTrader', { exact: true })).toBeVisible();
  await expect(ct.getByText('Pepperstone', { exact: true })).toBeVisible();

  // This server has no cTrader app credentials: the server's reason replaces "Failed to generate cTrader login URL."
  await ct.getByRole('button', { name: 'Connect' }).click();
  await expect(ct.getByRole('alert')).toHaveText(CTRADER_NOT_CONFIGURED);
  expect(page.context().pages()).toHaveLength(1);
  const i = consoleErrors.findIndex((e) => /status of 503/.test(e));
  expect(i, 'the 503 of the redirect call').toBeGreaterThanOrEqual(0);
  consoleErrors.splice(i, 1);
});

test('edit keeps the stored password when left blank; delete asks first', async ({
  page,
  user,
  request,
  consoleErrors,
}) => {
  const account = await createMt5(request, user, 'Prop MT5');
  await signIn(page, user);
  await page.goto('/accounts');
  const before = card(page, 'Prop MT5');
  await before.getByRole('button', { name: 'Edit' }).click();

  const edit = page.getByRole('dialog', { name: 'Edit Account' });
  await expect(edit.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Prop MT5');
  await expect(edit.getByText('Leave blank to keep the stored password.')).toBeVisible();
  await expect(edit.getByRole('textbox', { name: 'Password' })).toHaveValue('');
  await edit.getByRole('textbox', { name: 'Name', exact: true }).fill('');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByText('This field is required.')).toBeVisible();
  await edit.getByRole('textbox', { name: 'Name', exact: true }).fill('Renamed MT5');
  await edit.getByRole('textbox', { name: 'Broker' }).fill('Pepperstone');
  await edit.getByRole('textbox', { name: 'Username' }).fill('trader-7');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();

  const renamed = card(page, 'Renamed MT5');
  await expect(renamed.getByText('Pepperstone · 51234567 @ ICMarketsSC-Demo')).toBeVisible();
  await expect(card(page, 'Prop MT5')).toHaveCount(0);
  const stored = await (await request.get(`/api/accounts/${account.id}/`, { headers: auth(user) })).json();
  expect(stored).toMatchObject({ name: 'Renamed MT5', broker: 'Pepperstone', username: 'trader-7' });

  // A stored account without a password would answer "MT5 account details are incomplete." before any
  // bridge is asked; getting as far as the missing bridge shows the blank field kept the password.
  await renamed.getByRole('button', { name: 'Connect' }).click();
  await expect(renamed.getByRole('alert')).toHaveText(NO_BRIDGE);
  expectOneBadGateway(consoleErrors);

  // Delete: the confirmation can be declined, then confirmed.
  await renamed.getByRole('button', { name: 'Edit' }).click();
  await edit.getByRole('button', { name: 'Delete Account' }).click();
  const confirm = edit.getByRole('alertdialog', { name: 'Delete Account' });
  await expect(confirm).toContainText('Delete Renamed MT5?');
  await confirm.getByRole('button', { name: 'Keep account' }).click();
  await expect(confirm).toBeHidden();
  expect((await request.get(`/api/accounts/${account.id}/`, { headers: auth(user) })).status()).toBe(200);
  await edit.getByRole('button', { name: 'Delete Account' }).click();
  await confirm.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(edit).toBeHidden();
  await expect(card(page, 'Renamed MT5')).toHaveCount(0);
  await expect(card(page, 'Demo')).toBeVisible();
  expect((await request.get(`/api/accounts/${account.id}/`, { headers: auth(user) })).status()).toBe(404);
});

test('the cTrader selection page lists the accounts of its parameter and posts the choice', async ({
  page,
  user,
}) => {
  await signIn(page, user);
  const accounts = [
    {
      accountId: 1234567,
      accountNumber: 5551234,
      brokerName: 'Pepperstone',
      currency: 'USD',
      balance: 1520.5,
    },
    { accountId: 7654321, accountNumber: 5559876, broker: 'IC Markets', currency: 'EUR', balance: 980 },
  ];
  await page.goto(`/select-ctrader-account?accounts=${encodeURIComponent(JSON.stringify(accounts))}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Select a cTrader Account' })).toBeVisible();
  const first = page.getByRole('group', { name: 'cTrader account 5551234' });
  await expect(first).toContainText('Pepperstone');
  await expect(first).toContainText('1,520.50 USD');
  const second = page.getByRole('group', { name: 'cTrader account 5559876' });
  await expect(second).toContainText('IC Markets');
  await expect(second).toContainText('980.00 EUR');

  // This user never signed in with cTrader, so the server refuses the choice and the page says why.
  await first.getByRole('button', { name: 'Select account 5551234' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'No authorised cTrader account: use Connect on a cTrader account first.',
  );
  await expect(page.getByText('Account selected and stored!')).toHaveCount(0);

  // Empty or malformed parameters show the empty state, never a crash.
  for (const q of [
    '',
    '?accounts=',
    '?accounts=%5B%5D',
    '?accounts=not-json',
    '?accounts=%7B%22a%22%3A1%7D',
  ]) {
    await page.goto(`/select-ctrader-account${q}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Select a cTrader Account' }), q).toBeVisible();
    await expect(page.getByText('No accounts found.'), q).toBeVisible();
  }
});

test('live prices move, pause closes the socket, a new symbol replaces it', async ({ page, user }) => {
  const sockets: WebSocket[] = [];
  page.on('websocket', (ws) => {
    if (ws.url().includes('/ws/prices/')) sockets.push(ws);
  });
  await signIn(page, user);
  await page.goto('/accounts');
  const section = page.getByRole('region', { name: 'Live prices' });
  await expect(section.getByRole('combobox', { name: 'Account' })).toHaveValue('Demo (Simulated)');

  // BTCUSD trades every day (FX is closed at weekends); it has 2 digits, fewer than 5.
  const symbol = section.getByRole('combobox', { name: 'Symbol' });
  await symbol.fill('BTCUSD');
  await symbol.press('Enter');
  const quote = section.getByRole('group', { name: 'BTCUSD live quote' });
  await expect(quote.getByRole('status', { name: 'Price feed: Live' })).toBeVisible();
  const bid = quote.getByLabel('Bid');
  const ask = quote.getByLabel('Ask');
  await expect(bid).toHaveText(/^\d+\.\d{2}$/);
  await expect(ask).toHaveText(/^\d+\.\d{2}$/);
  const firstBid = await bid.textContent();
  await expect.poll(() => bid.textContent(), { timeout: 8_000 }).not.toBe(firstBid);
  expect(Number(await ask.textContent())).toBeGreaterThan(Number(await bid.textContent()));
  const btc = sockets.filter((s) => s.url().endsWith('/BTCUSD'));
  expect(btc).toHaveLength(1);

  // Pausing closes the socket and freezes the prices; resuming opens a new one.
  await quote.getByRole('button', { name: 'Pause' }).click();
  await expect(quote.getByRole('status', { name: 'Price feed: Paused' })).toBeVisible();
  await expect.poll(() => btc[0]!.isClosed()).toBe(true);
  const pausedBid = await bid.textContent();
  await page.waitForTimeout(1_500);
  await expect(bid).toHaveText(pausedBid!);
  await quote.getByRole('button', { name: 'Resume' }).click();
  await expect(quote.getByRole('status', { name: 'Price feed: Live' })).toBeVisible();
  await expect.poll(() => bid.textContent(), { timeout: 8_000 }).not.toBe(pausedBid);
  expect(sockets.filter((s) => s.url().endsWith('/BTCUSD'))).toHaveLength(2);

  // Another symbol: the BTCUSD socket closes, one for the new symbol opens, old prices are not shown.
  await symbol.fill('XAUUSD');
  await symbol.press('Enter');
  await expect(section.getByRole('group', { name: 'XAUUSD live quote' })).toBeVisible();
  await expect
    .poll(() => sockets.filter((s) => s.url().endsWith('/BTCUSD')).every((s) => s.isClosed()))
    .toBe(true);
  await expect.poll(() => sockets.some((s) => s.url().endsWith('/XAUUSD'))).toBe(true);
});
