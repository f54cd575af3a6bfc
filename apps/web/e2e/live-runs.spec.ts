import { auth } from './helpers';
import { expect, signIn, test } from './fixtures';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

test('start a live run from the version page, follow its log on its page, stop it', async ({
  page,
  user,
  request,
}) => {
  test.setTimeout(300_000);
  const headers = auth(user);
  const accounts = await (await request.get('/api/accounts/', { headers })).json();
  const bot = await (
    await request.post('/api/bots/bots/', {
      headers,
      data: { name: 'Paper bot', account_id: accounts[0].id, strategy_template: 'ema_crossover.py' },
    })
  ).json();
  const templates = await (await request.get('/api/bots/strategy-templates/', { headers })).json();
  const ema = templates.find((t: { filename: string }) => t.filename === 'ema_crossover.py');
  const version = await (
    await request.post('/api/bots/versions/', {
      headers,
      data: {
        bot_id: bot.id,
        strategy_file_content: ema.content,
        params: { ...ema.default_params, symbol: 'EURUSD', timeframe: 'M1' },
      },
    })
  ).json();

  await signIn(page, user);
  await page.goto(`/bots/${bot.id}/versions/${version.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Version Details' })).toBeVisible();
  await expect(page.getByText('No live runs yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Start Live Run' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Live run started' });
  await expect(alert).toContainText(UUID);
  const id = UUID.exec((await alert.textContent()) ?? '')![0];
  const list = page.getByRole('table', { name: 'Live runs' });
  await expect(list.getByRole('link', { name: id.slice(0, 8) })).toBeVisible();

  await alert.getByRole('link', { name: 'Open the live run' }).click();
  await expect(page).toHaveURL(`/bots/live-runs/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Live Run' })).toBeVisible();
  await expect(page.getByTestId('live-run-status')).toHaveText('RUNNING', { timeout: 180_000 });
  const log = page.getByRole('log', { name: 'Live run log' });
  await expect(log).toContainText('Live run requested on');
  await expect(log).toContainText('Strategy loaded (on_bar); waiting for the next M1 bar to close.');

  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(page.getByTestId('live-run-status')).toHaveText('STOPPED');
  // The stop arrives over the socket too: the log follows without a reload.
  await expect(log).toContainText('Stopped: Stopped by the user.');
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeDisabled();

  await page.goto(`/bots/${bot.id}/versions/${version.id}`);
  await expect(page.getByRole('table', { name: 'Live runs' }).getByText('STOPPED')).toBeVisible();
});
