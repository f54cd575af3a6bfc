import { expect, signIn, test } from './fixtures';
import { auth, roundTrip } from './helpers';

// The browser's own zone, so the "(browser)" choice is known.
test.use({ timezoneId: 'Europe/London' });

test('settings: a saved time zone is kept and the reports read their times in it', async ({
  page,
  request,
  user,
}) => {
  const [demo] = (await (await request.get('/api/accounts/', { headers: auth(user) })).json()) as Array<{
    id: string;
  }>;
  await roundTrip(request, user, demo!.id, 'BUY', 'Zone check');

  await signIn(page, user);
  await page.goto('/settings');
  const zone = page.getByRole('combobox', { name: 'Time zone' });
  // Nothing saved yet: the browser's zone, marked as such.
  await expect(zone).toHaveValue('Europe/London (browser)');
  await page.goto('/reports');
  await expect(page.getByText('Times in Europe/London')).toHaveCount(2);

  await page.goto('/settings');
  await zone.click();
  await zone.fill('Tokyo');
  await page.getByRole('option', { name: 'Asia/Tokyo', exact: true }).click();
  await expect(zone).toHaveValue('Asia/Tokyo');
  const save = page.getByRole('button', { name: 'Save' });
  await save.click();
  await expect(page.getByText('Time zone saved.')).toBeVisible();
  await expect(save).toBeDisabled();

  await page.reload();
  await expect(zone).toHaveValue('Asia/Tokyo');
  const saved = await request.get('/api/users/me/settings/', { headers: auth(user) });
  expect(await saved.json()).toEqual({ time_zone: 'Asia/Tokyo' });

  await page.getByRole('link', { name: 'Reports' }).click();
  await expect(page).toHaveURL(/\/reports$/);
  await expect(page.getByText('Times in Asia/Tokyo')).toHaveCount(2);
  await expect(page.getByText('Times in Europe/London')).toHaveCount(0);

  // Back to the browser's zone: the setting is cleared.
  await page.goto('/settings');
  await page.getByRole('button', { name: "Use the browser's zone" }).click();
  await expect(zone).toHaveValue('Europe/London (browser)');
  expect(await (await request.get('/api/users/me/settings/', { headers: auth(user) })).json()).toEqual({
    time_zone: null,
  });
});
