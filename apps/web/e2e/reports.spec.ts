import { expect, signIn, test } from './fixtures';
import { auth, roundTrip } from './helpers';

test('reports: cards, calendar and R histogram, narrowed by a strategy tag, with empty states', async ({
  page,
  request,
  user,
}) => {
  const [demo] = (await (await request.get('/api/accounts/', { headers: auth(user) })).json()) as Array<{
    id: string;
  }>;
  const ids = [
    await roundTrip(request, user, demo!.id, 'BUY', 'Breakout retest'),
    await roundTrip(request, user, demo!.id, 'SELL', 'Fade the spike'),
    await roundTrip(request, user, demo!.id, 'BUY', 'Second breakout'),
  ];
  for (const [trade, tag] of [
    [ids[0]!, 'breakout'],
    [ids[1]!, 'reversal'],
    [ids[2]!, 'breakout'],
  ] as const) {
    const res = await request.post('/api/trade_journal/journals/', {
      headers: auth(user),
      data: { trade, action: 'Closed', trade_timeframe: '1H', reason: 'Planned', strategy_tag: tag },
    });
    expect(res.status()).toBeLessThan(300);
  }

  await signIn(page, user);
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Reports' }).click();
  await expect(page).toHaveURL(/\/reports$/);
  const figures = page.getByLabel('Key figures');
  await expect(figures.getByText('Closed trades').locator('xpath=following-sibling::*[1]')).toHaveText('3');

  const calendar = page.getByLabel('P/L calendar');
  await expect(calendar).toBeVisible();
  // Today's trades sit in the grid with their count, signed so they read without colour.
  await expect(calendar.getByText('3 trades')).toBeVisible();
  await expect(calendar.getByText(/^[+−]\d+\.\d{2}$/).first()).toBeVisible();
  const histogram = page.getByLabel('R-multiple distribution');
  await expect(histogram.getByText('R-multiple distribution')).toBeVisible();
  // All three trades lost a few cents against a 500-dollar stop: one bar of 3 in the bin below zero.
  await expect(histogram.getByLabel('Trades per bin')).toHaveText('−0.5R to 0R: 3 trades');
  await expect(histogram.locator('text').filter({ hasText: /^3$/ })).toHaveCount(1);

  const tags = page.getByRole('table', { name: 'Performance by strategy tag' });
  await expect(tags.getByRole('row', { name: /^breakout 2 / })).toBeVisible();
  await expect(tags.getByRole('row', { name: /^reversal 1 / })).toBeVisible();

  await page.getByLabel('Strategy tag', { exact: true }).fill('breakout');
  await page.getByLabel('Strategy tag', { exact: true }).press('Enter');
  await expect(figures.getByText('Closed trades').locator('xpath=following-sibling::*[1]')).toHaveText('2');
  await expect(calendar.getByText('2 trades')).toBeVisible();
  await expect(tags.getByRole('row')).toHaveCount(2);
  await expect(histogram.getByLabel('Trades per bin')).toHaveText('−0.5R to 0R: 2 trades');

  await page.getByLabel('Strategy tag', { exact: true }).fill('no-such-tag');
  await page.getByLabel('Strategy tag', { exact: true }).press('Enter');
  await expect(page.getByText('No closed trades match these filters.')).toBeVisible();
});
