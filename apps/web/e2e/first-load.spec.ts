import { expect, test } from '@playwright/test';
import path from 'node:path';
import { FIRST_LOAD_JS_BUDGET, measureFirstLoad } from '../build/firstLoad';

/** The build under test: the one the server of this run serves. */
const dist = path.resolve(process.env.E2E_WEB_DIST ?? path.join(import.meta.dirname, '..', 'dist'));

test.describe('first load', () => {
  for (const load of measureFirstLoad(dist)) {
    test(`the JS needed to show ${load.page} is within ${FIRST_LOAD_JS_BUDGET / 1024} KB gzip`, () => {
      console.log(
        `${load.page}: ${(load.gzipBytes / 1024).toFixed(1)} KB gzip in ${load.files.length} files`,
      );
      expect(load.gzipBytes).toBeLessThanOrEqual(FIRST_LOAD_JS_BUDGET);
    });
  }

  test('scripts come precompressed with an immutable cache; maps are not served', async ({ request }) => {
    const html = await (await request.get('/login')).text();
    const script = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
    expect(script).toMatch(/^\/assets\/index-.+\.js$/);
    for (const encoding of ['br', 'gzip']) {
      const res = await request.get(script!, { headers: { 'accept-encoding': encoding } });
      expect(res.status()).toBe(200);
      expect(res.headers()['content-encoding']).toBe(encoding);
      expect(res.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers()['content-type']).toMatch(/javascript/);
    }
    expect((await request.get(`${script!}.map`)).status()).toBe(404);
    expect(html).not.toContain('sourceMappingURL');
  });

  test('HEAD answers wherever GET does', async ({ request }) => {
    for (const url of ['/login', '/dashboard', '/', '/api/health']) {
      const res = await request.head(url);
      expect(res.status(), url).toBe(200);
    }
  });
});
