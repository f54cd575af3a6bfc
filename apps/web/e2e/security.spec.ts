import type { Page } from '@playwright/test';
import { createUser, expect, signIn, test } from './fixtures';
import { auth } from './helpers';
import { ROUTES } from './routes';

/** Records every CSP violation the page reports, from the first script on. */
async function watchCsp(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction('__cspViolation', (v: string) => void seen.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation(v: string): void }).__cspViolation(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`,
      );
    });
  });
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) seen.push(m.text());
  });
  return seen;
}

test('every screen runs under the CSP without a single violation', async ({ page, user, request }) => {
  test.setTimeout(180_000); // some 25 screens, on a busy machine
  const violations = await watchCsp(page);
  const csp = (await request.get('/')).headers()['content-security-policy'];
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);

  await page.goto('/');
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  await signIn(page, user);
  // A screen with real data too: the trader's own Demo account history.
  const accounts = await (await request.get('/api/accounts/', { headers: auth(user) })).json();
  const screens: Array<[string, string]> = [
    ...ROUTES,
    [`/accounts/${accounts[0].id}/trade-history`, 'Trade History'],
  ];
  for (const [path, title] of screens) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: title }).first(), path).toBeVisible();
  }
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Manage Watchlist' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  expect(violations).toEqual([]);
});

test('the API documentation page runs under the CSP too', async ({ page }) => {
  const violations = await watchCsp(page);
  await page.goto('/api/docs/');
  await expect(page.getByRole('heading', { name: /TradeDesk API/ })).toBeVisible();
  expect(violations).toEqual([]);
});

test('the app refuses to be framed', async ({ page }) => {
  const res = await page.request.get('/dashboard');
  expect(res.headers()['x-frame-options']).toBe('DENY');
  expect(res.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
});

test('Logout revokes the refresh token on the server', async ({ page, request }) => {
  // Sign in through the form, so the app holds a refresh token of its own.
  const u = await createUser(request, 'leaver');
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Username' }).fill(u.username);
  await page.locator('input[name="password"]').fill(u.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const refresh = await page.evaluate(() => localStorage.getItem('refresh'));
  expect(refresh).toBeTruthy();
  const logout = page.waitForResponse((r) => r.url().endsWith('/api/token/logout/'));
  await page.getByRole('button', { name: 'Logout' }).click();
  expect((await logout).status()).toBe(204);
  await expect(page).toHaveURL(/\/login$/);
  const again = await request.post('/api/token/refresh/', { data: { refresh } });
  expect(again.status()).toBe(401);
});
