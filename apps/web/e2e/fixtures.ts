import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';

/** The first user, created through the login page by bootstrap.setup.ts. */
export const ADMIN = { username: 'admin', password: 'admin-password-1' };

export interface TestUser {
  username: string;
  password: string;
  token: string;
}

async function token(request: APIRequestContext, username: string, password: string): Promise<string> {
  const res = await request.post('/api/token/', { data: { username, password } });
  expect(res.status(), `login of ${username}`).toBe(200);
  return (await res.json()).access;
}

/** A fresh user per test, created by the admin through the API, so tests never share data. */
export async function createUser(request: APIRequestContext, prefix = 'trader'): Promise<TestUser> {
  const adminToken = await token(request, ADMIN.username, ADMIN.password);
  const username = `${prefix}_${randomBytes(4).toString('hex')}`;
  const password = 'pass-word-123';
  const res = await request.post('/api/users/', {
    data: { username, password },
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(res.status()).toBe(201);
  return { username, password, token: await token(request, username, password) };
}

/** Puts the user's token where the app keeps it, as a signed-in browser would have it. */
export async function signIn(page: Page, user: TestUser): Promise<void> {
  await page.addInitScript((t) => {
    if (!sessionStorage.getItem('e2e-signed-in')) {
      localStorage.setItem('token', t);
      sessionStorage.setItem('e2e-signed-in', '1');
    }
  }, user.token);
}

/** Fails the test on any console error or uncaught page error. */
export const test = base.extend<{ user: TestUser; consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (m) => {
        if (
          m.type() === 'error' &&
          !/Failed to load resource: the server responded with a status of (401|4\d\d)/.test(m.text())
        ) {
          errors.push(m.text());
        }
      });
      page.on('pageerror', (e) => errors.push(e.message));
      await use(errors);
      expect(errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
  user: async ({ request }, use) => {
    await use(await createUser(request));
  },
});

export { expect };
