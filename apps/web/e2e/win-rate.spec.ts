import type { Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures';
import { pickOption } from './helpers';

/*
 * Expected figures are worked by hand from p = (ln(1+G)/N − ln(1−r)) / (ln(1+r·A) − ln(1−r)):
 * e.g. G=10 %, r=0.5 %, N=30, A=0.88 → (0.0031770 + 0.0050125) / (0.0043904 + 0.0050125) = 87.10 %.
 */

const minWinRate = (page: Page) => page.getByTestId('min-win-rate');
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

async function chartPath(page: Page): Promise<string> {
  return (await page.locator('.recharts-line path.recharts-curve').first().getAttribute('d')) ?? '';
}

/** The chart's data table (behind "Chart data"): first and last rows as text. */
async function chartRows(page: Page): Promise<{ count: number; first: string; last: string }> {
  const rows = page.getByRole('table', { name: 'Minimum win rate by risk per trade' }).locator('tbody tr');
  return {
    count: await rows.count(),
    first: (await rows.first().innerText()).replace(/\s+/g, ' '),
    last: (await rows.last().innerText()).replace(/\s+/g, ' '),
  };
}

async function expectResult(page: Page, text: string, tone: 'teal' | 'orange' | 'red') {
  await expect(minWinRate(page)).toHaveText(text);
  await expect(minWinRate(page)).toHaveAttribute('style', new RegExp(`--mantine-color-${tone}`));
}

test('every input updates the results and the chart; an invalid split hides them with its message', async ({
  page,
  user,
}) => {
  await signIn(page, user);
  await page.goto('/win-rate');
  await expect(page.getByRole('heading', { level: 1, name: 'Win-Rate Calculator' })).toBeVisible();
  await expect(
    page.getByText(
      /closes targets 1 to k at their R multiples and the rest of the position at breakeven \(0R\)/,
    ),
  ).toBeVisible();

  // Spec defaults: 10 %, 0.5 %, 30 trades, Intraday, 40/30/30 at 1/2/3R, quantities 100/0/0 → A = 0.4, out of reach.
  await expect(field(page, 'Growth goal (%)')).toHaveValue('10%');
  await expect(field(page, 'Risk per trade (%)')).toHaveValue('0.5%');
  await expect(field(page, 'Number of trades')).toHaveValue('30');
  await expect(page.getByRole('combobox', { name: 'Profile', exact: true })).toHaveValue('Intraday');
  await expect(minWinRate(page)).toHaveText('Out of reach');
  await expect(page.getByTestId('average-rr')).toHaveText('0.40R');
  await page.getByText('Chart data').click();
  let rows = await chartRows(page);
  // Out of reach up to 0.5 %: the chart stretches to 1.6 % (twice the 0.80 % that reaches the goal) so the
  // line shows where it becomes reachable, and a hint says so.
  expect(rows).toEqual({ count: 20, first: '0.10% Out of reach', last: '1.60% 85.77%' });
  await expect(page.getByTestId('win-rate-reach-hint')).toHaveText(
    'Out of reach at 0.50% risk over 30 trades: reachable from 0.80% risk per trade, or with 48 trades at 0.50%.',
  );

  // Quantities 50/30/20: contributions 0.4, 0.3·2·0.5 = 0.30, 0.3·3·0.2 = 0.18, A = 0.88 → 87.10 % (red).
  await field(page, 'Target 1 quantity (%)').fill('50');
  await field(page, 'Target 2 quantity (%)').fill('30');
  await field(page, 'Target 3 quantity (%)').fill('20');
  await expectResult(page, '87.10%', 'red');
  await expect(page.getByTestId('average-rr')).toHaveText('0.88R');
  await expect(page.getByTestId('contribution-1')).toHaveText('0.40R');
  await expect(page.getByTestId('contribution-2')).toHaveText('0.30R');
  await expect(page.getByTestId('contribution-3')).toHaveText('0.18R');
  await expect.poll(async () => (await chartRows(page)).last).toBe('0.50% 87.10%');
  let path = await chartPath(page);
  expect(path).not.toBe('');

  // Growth goal 10 → 5 %: 70.60 % (amber).
  await field(page, 'Growth goal (%)').fill('5');
  await expectResult(page, '70.60%', 'orange');
  await expect.poll(async () => (await chartRows(page)).last).toBe('0.50% 70.60%');
  await expect.poll(() => chartPath(page)).not.toBe(path);
  path = await chartPath(page);

  // Risk by keyboard on its slider: five steps of 0.1 from 0.5 to 1.0 % → 62.07 %; the chart now spans 0.10-1.00 %.
  const riskSlider = page.getByRole('slider', { name: 'Risk per trade (%) slider' });
  await riskSlider.focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  await expect(field(page, 'Risk per trade (%)')).toHaveValue('1%');
  await expectResult(page, '62.07%', 'orange');
  rows = await chartRows(page);
  expect(rows).toEqual({ count: 20, first: '0.10% Out of reach', last: '1.00% 62.07%' });
  await expect.poll(() => chartPath(page)).not.toBe(path);
  path = await chartPath(page);

  // 60 trades: 57.75 % (green).
  await field(page, 'Number of trades').fill('60');
  await expectResult(page, '57.75%', 'teal');
  await expect.poll(async () => (await chartRows(page)).last).toBe('1.00% 57.75%');
  await expect.poll(() => chartPath(page)).not.toBe(path);
  path = await chartPath(page);

  // Target 3 at 4R: contribution 0.3·4·0.2 = 0.24, A = 0.94 → 55.98 %.
  await field(page, 'Target 3 R multiple').fill('4');
  await expect(page.getByTestId('contribution-3')).toHaveText('0.24R');
  await expectResult(page, '55.98%', 'teal');
  await expect.poll(() => chartPath(page)).not.toBe(path);
  path = await chartPath(page);

  // An invalid split hides the results and the chart and says why.
  await field(page, 'Target 1 size (%)').fill('50');
  await expect(page.getByRole('alert', { name: 'Check the partial targets' })).toContainText(
    'Sizes must add up to 100% (now 110%).',
  );
  await expect(minWinRate(page)).toHaveCount(0);
  await expect(page.getByText('Results are hidden')).toBeVisible();
  await expect(page.getByText('The chart appears when the inputs are valid.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save scenario…' })).toBeDisabled();
  await field(page, 'Target 3 quantity (%)').fill('10');
  await expect(page.getByRole('alert', { name: 'Check the partial targets' })).toContainText(
    'Quantities must add up to 100% (now 90%).',
  );
  await field(page, 'Target 3 quantity (%)').fill('20');
  // Sizes 50/30/20: contributions 0.50, 0.30, 0.2·4·0.2 = 0.16, A = 0.96 → 55.41 %.
  await field(page, 'Target 3 size (%)').fill('20');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expectResult(page, '55.41%', 'teal');
  await expect(page.getByTestId('average-rr')).toHaveText('0.96R');
  await expect.poll(async () => (await chartRows(page)).last).toBe('1.00% 55.41%');
  await expect.poll(() => chartPath(page)).not.toBe(path);
});

/** Growth 5 %, risk 1 %, 60 trades, Swing, 50/30/20 at 1/2/4R, quantities 50/30/20 → A = 0.96, 55.41 %. */
async function enterPlan(page: Page) {
  await field(page, 'Growth goal (%)').fill('5');
  await field(page, 'Risk per trade (%)').fill('1');
  await field(page, 'Number of trades').fill('60');
  await pickOption(page, page.getByRole('combobox', { name: 'Profile', exact: true }), 'Swing');
  for (const [label, value] of [
    ['Target 1 size (%)', '50'],
    ['Target 3 size (%)', '20'],
    ['Target 3 R multiple', '4'],
    ['Target 1 quantity (%)', '50'],
    ['Target 2 quantity (%)', '30'],
    ['Target 3 quantity (%)', '20'],
  ]) {
    await field(page, label!).fill(value!);
  }
  await expectResult(page, '55.41%', 'teal');
}

test('a saved scenario comes back with every input after a reload', async ({ page, user }) => {
  await signIn(page, user);
  await page.goto('/win-rate');
  await enterPlan(page);

  // Save the scenario under a name, reload (back to defaults), load it: every input comes back.
  await page.getByRole('button', { name: 'Save scenario…' }).click();
  const saveDialog = page.getByRole('dialog', { name: 'Save scenario' });
  await saveDialog.getByLabel('Scenario name').fill('E2E plan');
  await saveDialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Scenario "E2E plan" saved.')).toBeVisible();
  await expect(saveDialog).toBeHidden();

  await page.reload();
  await expect(minWinRate(page)).toHaveText('Out of reach');
  await pickOption(page, page.getByRole('combobox', { name: 'Load a scenario', exact: true }), 'E2E plan');
  await expect(field(page, 'Growth goal (%)')).toHaveValue('5%');
  await expect(field(page, 'Risk per trade (%)')).toHaveValue('1%');
  await expect(field(page, 'Number of trades')).toHaveValue('60');
  await expect(page.getByRole('combobox', { name: 'Profile', exact: true })).toHaveValue('Swing');
  for (const [label, value] of [
    ['Target 1 size (%)', '50%'],
    ['Target 2 size (%)', '30%'],
    ['Target 3 size (%)', '20%'],
    ['Target 1 R multiple', '1'],
    ['Target 2 R multiple', '2'],
    ['Target 3 R multiple', '4'],
    ['Target 1 quantity (%)', '50%'],
    ['Target 2 quantity (%)', '30%'],
    ['Target 3 quantity (%)', '20%'],
  ]) {
    await expect(field(page, label!), label).toHaveValue(value!);
  }
  await expectResult(page, '55.41%', 'teal');
});

test('save the splits as a profile, apply it to an account and see it as its default TP profile', async ({
  page,
  user,
}) => {
  await signIn(page, user);
  await page.goto('/win-rate');
  await field(page, 'Target 1 size (%)').fill('50');
  await field(page, 'Target 3 size (%)').fill('20');
  await field(page, 'Target 3 R multiple').fill('4');

  // Save the current splits as a default profile; it shows as a card with the Default badge.
  await expect(page.getByText('No profit profiles yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Save current splits as profile…' }).click();
  let profileDialog = page.getByRole('dialog', { name: 'Save current splits as a profile' });
  await expect(profileDialog.getByText('50% at 1R · 30% at 2R · 20% at 4R')).toBeVisible();
  await profileDialog.getByLabel('Profile name').fill('E2E profile');
  await profileDialog.getByLabel('Make this my default profile').check();
  await profileDialog.getByRole('button', { name: 'Save profile' }).click();
  const card = page.getByRole('listitem', { name: 'E2E profile' });
  await expect(card).toBeVisible();
  await expect(card.getByText('Default', { exact: true })).toBeVisible();
  await expect(card.getByText('Target 3: 20% at 4R')).toBeVisible();

  // A second profile of the same name fails with the spec's message and the server's reason.
  await page.getByRole('button', { name: 'Save current splits as profile…' }).click();
  profileDialog = page.getByRole('dialog', { name: 'Save current splits as a profile' });
  await profileDialog.getByLabel('Profile name').fill('e2e PROFILE');
  await profileDialog.getByRole('button', { name: 'Save profile' }).click();
  await expect(profileDialog.getByRole('alert')).toContainText('Failed to save profile.');
  await expect(profileDialog.getByRole('alert')).toContainText(
    'You already have a profit profile with this name.',
  );
  await profileDialog.getByRole('button', { name: 'Cancel' }).click();

  // Apply it to the Demo account: nothing chosen is refused with the spec's message, then it applies.
  await card.getByRole('button', { name: 'Apply to accounts…' }).click();
  const applyDialog = page.getByRole('dialog', { name: 'Apply "E2E profile" to accounts' });
  const demo = applyDialog.getByRole('checkbox', { name: 'Demo (SIM)' });
  await expect(demo).toBeVisible();
  await expect(applyDialog.getByText('No default TP profile')).toBeVisible();
  await applyDialog.getByRole('button', { name: 'Apply' }).click();
  await expect(applyDialog.getByRole('alert')).toHaveText('Please select at least one account.');
  await demo.check();
  await applyDialog.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('"E2E profile" is now the default TP profile of 1 account.')).toBeVisible();
  await expect(applyDialog).toBeHidden();

  // The account's risk settings now carry it as the default TP profile, with its partial targets…
  const auth = { authorization: `Bearer ${user.token}` };
  const accounts = await (await page.request.get('/api/accounts/', { headers: auth })).json();
  const demoAccount = accounts.find((a: { name: string }) => a.name === 'Demo');
  const settings = await (
    await page.request.get(`/api/risk/settings/${demoAccount.id}/`, { headers: auth })
  ).json();
  expect(settings.default_tp_profile).toMatchObject({
    name: 'E2E profile',
    is_default: true,
    partial_targets: [
      { size_pct: 50, r_multiple: 1 },
      { size_pct: 30, r_multiple: 2 },
      { size_pct: 20, r_multiple: 4 },
    ],
  });
  // …and the screen shows it as the account's default.
  await card.getByRole('button', { name: 'Apply to accounts…' }).click();
  await expect(applyDialog.getByText('Default TP profile: E2E profile')).toBeVisible();
  await applyDialog.getByRole('button', { name: 'Cancel' }).click();

  // The saved-profile selector fills the splits from the profile's targets.
  await page.reload();
  await expect(field(page, 'Target 3 R multiple')).toHaveValue('3');
  await pickOption(
    page,
    page.getByRole('combobox', { name: 'Fill splits from a saved profile', exact: true }),
    'E2E profile (default)',
  );
  await expect(field(page, 'Target 1 size (%)')).toHaveValue('50%');
  await expect(field(page, 'Target 3 size (%)')).toHaveValue('20%');
  await expect(field(page, 'Target 3 R multiple')).toHaveValue('4');
});

test('applying a profile reports accounts that cannot be loaded and a failed apply', async ({
  page,
  user,
}) => {
  await signIn(page, user);
  const created = await page.request.post('/api/accounts/profit-profiles/', {
    headers: { authorization: `Bearer ${user.token}` },
    data: {
      name: 'Halves',
      partial_targets: [
        { r_multiple: 1.5, size_pct: 50 },
        { r_multiple: 3, size_pct: 50 },
      ],
    },
  });
  expect(created.status()).toBe(201);

  // A response that is not a list of accounts.
  await page.route('**/api/accounts/', (route) => route.fulfill({ status: 200, json: { unexpected: true } }));
  await page.goto('/win-rate');
  await page
    .getByRole('listitem', { name: 'Halves' })
    .getByRole('button', { name: 'Apply to accounts…' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Apply "Halves" to accounts' });
  await expect(dialog.getByRole('alert')).toContainText('Could not load your accounts.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // The accounts load, but the server refuses the change.
  await page.unroute('**/api/accounts/');
  await page.route('**/api/risk/settings/**', (route) =>
    route.request().method() === 'PATCH'
      ? route.fulfill({ status: 400, json: { detail: 'refused' } })
      : route.continue(),
  );
  await page
    .getByRole('listitem', { name: 'Halves' })
    .getByRole('button', { name: 'Apply to accounts…' })
    .click();
  await dialog.getByRole('checkbox', { name: 'Demo (SIM)' }).check();
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Failed to apply profile—please try again');
});

test('with the goal out of reach at every risk the chart still shows its 0-100% axis and the 60/80% lines', async ({
  page,
  user,
}) => {
  await signIn(page, user);
  await page.goto('/win-rate');
  // Spec defaults: A = 0.4, out of reach at all 20 risks, so the series is nothing but gaps.
  await expect(minWinRate(page)).toHaveText('Out of reach');
  const chart = page.getByRole('img', { name: /Line chart of the minimum win rate/ });
  for (const tick of ['0%', '20%', '40%', '100%']) await expect(chart).toContainText(tick);
  await expect(chart.locator('.recharts-reference-line')).toHaveCount(2);
});

test('on a phone every partial-target input shows its whole value', async ({ page, user }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, user);
  await page.goto('/win-rate');
  await expect(field(page, 'Target 1 quantity (%)')).toHaveValue('100%');
  for (const i of [1, 2, 3]) {
    for (const label of [`Target ${i} size (%)`, `Target ${i} R multiple`, `Target ${i} quantity (%)`]) {
      const input = field(page, label);
      const { scrollWidth, clientWidth } = await input.evaluate((e) => ({
        scrollWidth: e.scrollWidth,
        clientWidth: e.clientWidth,
      }));
      expect(scrollWidth, `${label} is cut off`).toBeLessThanOrEqual(clientWidth);
    }
  }
  // The keyboard still steps a value once the spin buttons are gone.
  await field(page, 'Target 1 R multiple').focus();
  await page.keyboard.press('ArrowUp');
  await expect(field(page, 'Target 1 R multiple')).toHaveValue('1.25');
});
