import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dbTargets, type Harness } from '../test/harness';

describe('security headers', () => {
  let h: Harness;
  let proxied: Harness;
  let web: string;
  beforeAll(async () => {
    web = mkdtempSync(path.join(tmpdir(), 'tradedesk-web-'));
    writeFileSync(path.join(web, 'index.html'), '<!doctype html><div id="root"></div>');
    h = await createHarness(dbTargets[0]!, { webDist: web });
    proxied = await createHarness(dbTargets[0]!, { trustProxy: true });
  });
  afterAll(async () => {
    await h.close();
    await proxied.close();
    rmSync(web, { recursive: true, force: true });
  });

  it.each(['/', '/dashboard', '/api/health', '/api/accounts/me/', '/api/docs/', '/api/nothing/'])(
    'sends the CSP, anti-framing, nosniff and referrer headers on %s',
    async (url) => {
      const res = await h.request('GET', url);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("object-src 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    },
  );

  it('sends HSTS only behind a TLS proxy (TRUST_PROXY), and reads the client address from it', async () => {
    const res = await proxied.request('GET', '/api/health');
    expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    // Login limits count the forwarded client, not the proxy every request comes through.
    const guess = (ip: string) =>
      proxied.request('POST', '/api/token/', {
        body: { username: 'nobody', password: 'wrong-password' },
        headers: { 'x-forwarded-for': ip },
      });
    for (let i = 0; i < proxied.config.loginAttemptsPerMinute; i++)
      expect((await guess('203.0.113.7')).statusCode).toBe(401);
    expect((await guess('203.0.113.7')).statusCode).toBe(429);
    expect((await guess('203.0.113.8')).statusCode).toBe(401);
  });
});
