import { expect, test } from '@playwright/test';
import { ADMIN } from './fixtures';

test('the first visit offers to create the first user, who is then signed in', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: /Welcome to/ })).toBeVisible();
  await page.getByLabel(/^Username/).fill(ADMIN.username);
  await page.getByLabel(/^Password/).fill(ADMIN.password);
  await page.getByLabel(/^Confirm password/).fill('something-else');
  await page.getByRole('button', { name: 'Create first user' }).click();
  await expect(page.getByRole('alert')).toHaveText('The two passwords differ.');
  await page.getByLabel(/^Confirm password/).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Create first user' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  // Once a user exists, the login page is a plain login form.
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  const again = await page.request.post('/api/users/bootstrap/', {
    data: { username: 'late', password: 'late-password' },
  });
  expect(again.status()).toBe(409);
});
