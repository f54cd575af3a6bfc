import { expect, test } from './fixtures';

const HEADLINE =
  'The European Central Bank raised interest rates by 25 basis points on Thursday, its tenth increase in a row. ' +
  'President Christine Lagarde said inflation was still expected to remain too high for too long. ' +
  'The euro rose against the dollar after the decision, while German stocks slipped.';

test('a visitor pastes a central-bank headline and sees the summary and the impact table', async ({
  page,
}) => {
  // Hold the answer a moment so that the loading state can be seen.
  await page.route('**/api/news/analyze/', async (route) => {
    await new Promise((r) => setTimeout(r, 400));
    await route.continue();
  });
  await page.goto('/');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await page.getByRole('textbox', { name: 'News article' }).fill(HEADLINE);
  await page.getByRole('button', { name: 'Analyze News' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Analysing the news…' })).toBeVisible();

  const result = page.getByRole('region', { name: 'AI Analysis' });
  await expect(result.getByRole('heading', { name: 'AI Analysis' })).toBeVisible();
  await expect(result.getByText('offline analysis', { exact: true })).toBeVisible();
  await expect(
    result.getByText(/^The European Central Bank raised interest rates by 25 basis points/),
  ).toBeVisible();

  const table = result.getByRole('table', { name: 'Market impact' });
  const row = (instrument: string) => table.getByRole('row').filter({ hasText: instrument });
  await expect(row('EURUSD')).toContainText('Bullish');
  await expect(row('EURUSD')).toContainText('hawkish "raised interest rates" (ECB): EUR up');
  await expect(row('EURJPY')).toContainText('Bullish');
  await expect(row('GER40')).toContainText('Bearish');
  await expect(page.getByRole('status').filter({ hasText: 'Analysing the news…' })).toHaveCount(0);
});

test('a visitor over the per-address limit sees the rate-limit message', async ({ page }) => {
  await page.goto('/');
  // Use up this address's quota through the API; the page's own request is then refused.
  for (let i = 0; i < 20; i++) {
    const res = await page.request.post('/api/news/analyze/', { data: { text: 'Gold rose.' } });
    if (res.status() === 429) break;
    expect(res.status()).toBe(200);
  }
  await page.getByRole('textbox', { name: 'News article' }).fill(HEADLINE);
  await page.getByRole('button', { name: 'Analyze News' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'You have analysed a lot of news in a short time. Please wait before trying again.',
  );
  await expect(page.getByRole('region', { name: 'AI Analysis' })).toHaveCount(0);
});
