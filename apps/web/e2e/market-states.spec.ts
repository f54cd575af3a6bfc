import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, signIn, test, type TestUser } from './fixtures';
import { auth } from './helpers';

/**
 * Market states where prices show, and the trade ticket's honest refusals: a closed market (a second
 * server whose simulated clock stands on a Saturday), an MT5 account whose bridge is down, the risk
 * lock warning, the journal's reason error and a trade's closed parts. At 1440×900 and 390×844.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const MAIN_PORT = Number(process.env.E2E_PORT ?? 8765);
/** The weekend server: beside the main one, its own port and data folder. */
const WEEKEND_PORT = MAIN_PORT + 100;
const WEEKEND = `http://127.0.0.1:${WEEKEND_PORT}`;
/** Saturday noon UTC: FX is closed until Sunday 22:00 UTC, which is Monday 07:00 in Tokyo. */
const SATURDAY = '2026-06-27T12:00:00Z';
const NO_BRIDGE = 'MT5 is not available: no MT5 bridge is configured on this server (MT5_BRIDGE_URL).';

let weekend: ChildProcess | undefined;

// Two servers and many sockets on a shared 2-core machine: generous time, never a retry.
test.describe.configure({ timeout: 120_000 });

async function startWeekendServer(): Promise<void> {
  const dataDir = path.join(ROOT, '.tmp', `e2e-weekend-${WEEKEND_PORT}`);
  rmSync(dataDir, { recursive: true, force: true });
  weekend = spawn('node', [process.env.E2E_SERVER_ENTRY ?? 'apps/server/dist/main.js'], {
    cwd: ROOT,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(WEEKEND_PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      SIM_START: SATURDAY,
      ...(process.env.E2E_WEB_DIST ? { WEB_DIST: path.resolve(process.env.E2E_WEB_DIST) } : {}),
    },
  });
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${WEEKEND}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the weekend server did not start');
}

/** The weekend server's first user, made through its bootstrap endpoint. */
async function weekendUser(request: APIRequestContext): Promise<TestUser> {
  const user = { username: 'weekend', password: 'weekend-pass-1' };
  const made = await request.post(`${WEEKEND}/api/users/bootstrap/`, { data: user });
  expect([201, 200, 409]).toContain(made.status());
  const res = await request.post(`${WEEKEND}/api/token/`, { data: user });
  expect(res.status()).toBe(200);
  return { ...user, token: (await res.json()).access };
}

async function openTicket(page: Page) {
  const open = page.getByRole('button', { name: 'Open a Trade' });
  // Enabled once the accounts have loaded and one is chosen.
  await expect(open).toBeEnabled({ timeout: 30_000 });
  await open.click();
  const dialog = page.getByRole('dialog', { name: 'Place a Trade' });
  await expect(dialog).toBeVisible();
  return dialog;
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport, timezoneId: 'Asia/Tokyo', locale: 'en-GB' });

    test.describe('on a Saturday', () => {
      test.beforeAll(async () => {
        if (!weekend) await startWeekendServer();
      });

      test('a closed market disables Buy/Sell and Execute with the next open time in the trader’s zone', async ({
        page,
        request,
      }) => {
        const user = await weekendUser(request);
        await signIn(page, user);
        await page.goto(`${WEEKEND}/dashboard`);
        // The dashboard's chart says it too, with when the market opens.
        const chart = page.getByRole('region', { name: 'Chart' });
        const chartSymbol = chart.getByRole('combobox', { name: 'Symbol', exact: true });
        await chartSymbol.fill('EURUSD');
        await chartSymbol.press('Enter');
        await expect(chart.getByRole('status', { name: 'EURUSD market: Closed' })).toBeVisible();
        await expect(chart.getByTestId('market-state-detail')).toContainText(/Opens Mon(day)?,? 29 Jun/);
        const dialog = await openTicket(page);
        // EURUSD is the ticket's default symbol: closed, with when it opens (Sunday 22:00 UTC = Monday 07:00 JST).
        const notice = dialog.getByRole('alert').filter({ hasText: 'The market for EURUSD is closed.' });
        await expect(notice).toBeVisible();
        await expect(notice).toContainText(/Opens Mon(day)?,? 29 Jun(e)?,? 07:00/);
        await expect(dialog.getByRole('status', { name: 'EURUSD market: Closed' })).toBeVisible();
        await expect(dialog.getByRole('button', { name: /Buy \(Ask\)/ })).toBeDisabled();
        await expect(dialog.getByRole('button', { name: /Sell \(Bid\)/ })).toBeDisabled();
        await expect(dialog.getByRole('button', { name: 'Execute Trade' })).toBeDisabled();
        // The last price still shows, frozen, under the closed state.
        await expect(dialog.getByTestId('ask')).toHaveText(/^\d\.\d{5}$/);

        // BTCUSD trades at weekends: the same ticket opens for it.
        const symbol = dialog.getByRole('combobox', { name: 'Symbol', exact: true });
        await symbol.fill('BTCUSD');
        await symbol.press('Enter');
        await expect(dialog.getByRole('status', { name: 'BTCUSD market: Open' })).toBeVisible();
        await expect(dialog.getByRole('button', { name: /Buy \(Ask\)/ })).toBeEnabled();
        await expect(notice).toBeHidden();

        // The live prices of /accounts read "Closed" on a weekend quote, not "Live".
        await page.keyboard.press('Escape');
        await page.goto(`${WEEKEND}/accounts`);
        const quote = page.getByRole('group', { name: 'EURUSD live quote' });
        await expect(quote.getByRole('status', { name: 'Price feed: Closed' })).toBeVisible();
        await expect(quote.getByTestId('market-state-detail')).toContainText(/Opens Mon(day)?,? 29 Jun/);
      });
    });

    test('the MT5 ticket shows the bridge’s reason instead of spinners', async ({
      page,
      request,
      user,
      consoleErrors,
    }) => {
      const made = await request.post('/api/accounts/create/', {
        headers: auth(user),
        data: {
          name: 'Bridge MT5',
          platform: 'MT5',
          broker: 'IC Markets',
          account_number: '51234567',
          password: 'broker-secret-1',
          broker_server: 'ICMarketsSC-Demo',
        },
      });
      expect(made.status()).toBe(201);
      const id = (await made.json()).id as string;
      // The server's own answer, which the ticket must show as it is.
      const info = await request.get(`/api/trades/symbol-info/${id}/EURUSD`, { headers: auth(user) });
      expect(info.status()).toBe(502);
      expect((await info.json()).detail).toBe(NO_BRIDGE);

      await signIn(page, user);
      await page.goto('/dashboard');
      const dialog = await openTicket(page);
      await dialog.getByRole('combobox', { name: 'Account', exact: true }).click();
      await page.getByRole('option', { name: 'Bridge MT5 (MT5)' }).click();
      const notice = dialog.getByRole('alert').filter({ hasText: 'Broker unavailable' });
      await expect(notice).toContainText(NO_BRIDGE);
      await expect(dialog.getByText('Reconnecting to the price feed…')).toHaveCount(0);
      await expect(dialog.getByText('Loading symbol info…')).toHaveCount(0);
      await expect(dialog.getByRole('button', { name: 'Execute Trade' })).toBeDisabled();
      await expect(dialog.getByRole('button', { name: /Buy \(Ask\)/ })).toBeDisabled();

      // Back on the simulated account the notice goes: errors belong to the account they were made for.
      await dialog.getByRole('combobox', { name: 'Account', exact: true }).click();
      await page.getByRole('option', { name: /^Demo/ }).click();
      await expect(notice).toBeHidden();

      // The browser logs each 502 the app asked for (symbol info, symbols, account details) as a console
      // error; the fixture tolerates 4xx only. The app showed them: drop exactly those entries.
      const bad = consoleErrors.filter((e) => /status of 502/.test(e));
      expect(bad.length).toBeGreaterThan(0);
      consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((e) => !/status of 502/.test(e)));
    });

    test('saving risk settings warns first that they lock for 7 days, and until when', async ({
      page,
      user,
    }) => {
      await signIn(page, user);
      await page.goto('/accounts');
      await page.getByRole('button', { name: 'Edit Demo' }).click();
      const modal = page.getByRole('dialog', { name: 'Edit Account' });
      await modal.getByRole('button', { name: 'Risk Settings' }).click();
      await modal.getByLabel('Max Open Positions').fill('4');
      await modal.getByRole('button', { name: 'Save Risk Settings' }).click();
      const confirm = page.getByRole('dialog', { name: 'Save and lock the risk settings?' });
      const until = await confirm.getByTestId('risk-lock-warning').textContent();
      const date = /until (\d{4}-\d{2}-\d{2} \d{2}:\d{2})/.exec(until ?? '')?.[1];
      expect(date, until ?? '').toBeTruthy();
      await expect(confirm).toContainText('locked for 7 days');
      // Cancel sends nothing: the fields stay editable.
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(modal.getByLabel('Max Open Positions')).toBeEditable();
      await modal.getByRole('button', { name: 'Save Risk Settings' }).click();
      await confirm.getByRole('button', { name: 'Save and lock' }).click();
      await expect(page.getByText('Risk settings updated successfully.')).toBeVisible();
      // Locked: read-only fields with the unlock date the warning announced.
      // (the save comes a little after the warning: the same date, to within a minute or two).
      const locked = modal.getByText(/read-only until \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
      await expect(locked).toBeVisible();
      const shown = /until (\d{4}-\d{2}-\d{2} \d{2}:\d{2})/.exec((await locked.textContent()) ?? '')![1]!;
      const gap = Date.parse(shown.replace(' ', 'T')) - Date.parse(date!.replace(' ', 'T'));
      expect(gap).toBeGreaterThanOrEqual(0);
      expect(gap).toBeLessThanOrEqual(2 * 60_000);
      await expect(modal.getByLabel('Max Open Positions')).not.toBeEditable();
      await expect(modal.getByLabel('Max Open Positions')).toHaveValue('4');
    });

    test('history detail shows the opening lots and the closed parts; the journal reason error clears on typing', async ({
      page,
      request,
      user,
    }) => {
      const accounts = await (await request.get('/api/accounts/', { headers: auth(user) })).json();
      const demo = (accounts as Array<{ id: string; platform: string }>).find(
        (a) => a.platform === 'SIM',
      )!.id;
      // 0.10 lots of BTCUSD (it trades every day) risking 1 % over a 1,000-dollar stop on the 10,000 USD demo.
      const res = await request.post('/api/trades/execute/', {
        headers: auth(user),
        data: {
          account_id: demo,
          symbol: 'BTCUSD',
          lot_size: 0.1,
          direction: 'BUY',
          order_type: 'MARKET',
          risk_percent: 1,
          stop_loss_distance: 1000,
          rr_ratio: 2,
          reason: 'partial close check',
          trader: 'Me',
        },
      });
      expect(res.status(), await res.text()).toBe(200);
      const { trade_id } = await res.json();
      const part = await request.post(`/api/trades/${trade_id}/partial-close/`, {
        headers: auth(user),
        data: { volume_to_close: 0.04 },
      });
      expect(part.status(), await part.text()).toBeLessThan(300);

      await signIn(page, user);
      await page.goto(`/trades/history/${trade_id}`);
      const panel = page.getByLabel('Details of BTCUSD trade', { exact: true });
      await expect(panel.getByTestId('lots-summary')).toHaveText(
        'Opened 0.10 lots; 0.04 closed in 1 part, 0.06 still open.',
      );
      const parts = panel.getByRole('table', { name: 'Closed parts of the trade' });
      await expect(parts.getByRole('row')).toHaveCount(2);
      await expect(parts.getByRole('row').nth(1)).toContainText('PARTIAL_CLOSE');

      await panel.getByRole('button', { name: /^Trade Journals/ }).click();
      await panel.getByRole('button', { name: 'Add Journal Entry' }).click();
      const form = page.getByRole('dialog', { name: 'Journal This Trade' });
      await form.getByRole('button', { name: 'Submit Journal' }).click();
      const error = form.getByText('Please enter a reason before submitting the journal.');
      await expect(error).toBeVisible();
      await form.getByRole('textbox', { name: 'Reason' }).fill('Took a part off at 1R');
      await expect(error).toBeHidden();
    });
  });
}

test.afterAll(() => {
  weekend?.kill();
  weekend = undefined;
});
