import path from 'node:path';
import { THEME_KEY } from '../src/app/theme';
import { expect, signIn, test } from './fixtures';

/** Screenshots of the dashboard for review, written to apps/web/e2e/screenshots/ (ignored by git). */
const DIR = path.join(import.meta.dirname, 'screenshots');

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`dashboard at ${width}×${height}, ${scheme}: title, account and positions in view`, async ({
      page,
      user,
      request,
    }) => {
      const created = await request.post('/api/accounts/create/', {
        headers: { authorization: `Bearer ${user.token}` },
        data: { name: 'Demo', platform: 'SIM' },
      });
      expect(created.status()).toBe(201);
      await page.setViewportSize({ width, height });
      await signIn(page, user);
      await page.addInitScript(([key, value]) => localStorage.setItem(key!, value!), [THEME_KEY, scheme]);
      await page.goto('/dashboard');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Overall Stats (Per Account)' }),
      ).toBeVisible();
      await expect(page.getByRole('combobox', { name: 'Account' })).toHaveValue('Demo (SIM)');
      await expect(page.getByRole('button', { name: 'Open a Trade' })).toBeInViewport();
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      await page.screenshot({
        path: path.join(DIR, `dashboard-empty-${width}-${scheme}.png`),
        fullPage: true,
      });
    });
  }
}
