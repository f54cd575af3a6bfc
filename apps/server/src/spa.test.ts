import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dbTargets, type Harness } from './test/harness';

/** `npm start`: the built web app and the API from one port; the client router decides unknown pages. */
describe('serving the built web app', () => {
  let h: Harness;
  let web: string;
  const INDEX = '<!doctype html><div id="root"></div>';
  beforeAll(async () => {
    web = mkdtempSync(path.join(tmpdir(), 'tradedesk-web-'));
    mkdirSync(path.join(web, 'assets'));
    writeFileSync(path.join(web, 'index.html'), INDEX);
    writeFileSync(path.join(web, 'assets', 'index-abc123.js'), 'console.log(1)');
    // A precompressed twin, as the web build writes them, and a source map.
    writeFileSync(path.join(web, 'assets', 'index-abc123.js.br'), brotliCompressSync('console.log(1)'));
    writeFileSync(path.join(web, 'assets', 'index-abc123.js.map'), '{"version":3}');
    h = await createHarness(dbTargets[0]!, { webDist: web });
  });
  afterAll(async () => {
    await h.close();
    rmSync(web, { recursive: true, force: true });
  });

  it.each(['/', '/login', '/win-rate', '/bots/b-1/versions/v-1', '/no/such/page'])(
    'answers %s with the app page, not cached',
    async (url) => {
      const res = await h.request('GET', url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(INDEX);
    },
  );

  it('serves built files with a long cache, and a missing one as 404 rather than the page', async () => {
    const js = await h.request('GET', '/assets/index-abc123.js');
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toContain('immutable');
    const gone = await h.request('GET', '/assets/index-old999.js');
    expect(gone.statusCode).toBe(404);
    expect(gone.headers['content-type']).not.toMatch(/html/);
  });

  it('keeps API paths as JSON: 401 without a token, 404 {detail} with one', async () => {
    expect((await h.request('GET', '/api/no-such-thing/')).statusCode).toBe(401);
    const { token } = await h.user('sam');
    const res = await h.request('GET', '/api/no-such-thing/', { token });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('answers other methods on page paths with 404 {detail}', async () => {
    const res = await h.request('POST', '/win-rate', { body: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('sends the precompressed twin to a client that accepts brotli, with the same long cache', async () => {
    const res = await h.app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.rawPayload).toEqual(brotliCompressSync('console.log(1)'));
  });

  it('does not serve source maps unless configured', async () => {
    const res = await h.request('GET', '/assets/index-abc123.js.map');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('version');
  });

  it('answers HEAD wherever GET works: pages, built files, the API', async () => {
    for (const url of ['/', '/login', '/dashboard', '/assets/index-abc123.js', '/api/health']) {
      const res = await h.app.inject({ method: 'HEAD', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe('');
    }
  });

  it('compresses API JSON for clients that accept it', async () => {
    const { token } = await h.user('gzip-reader');
    const res = await h.app.inject({
      method: 'GET',
      url: '/api/openapi.json',
      headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString()).openapi).toMatch(/^3\./);
  });
});

describe('serving source maps when configured', () => {
  it('serves .map files with SERVE_SOURCE_MAPS', async () => {
    const web = mkdtempSync(path.join(tmpdir(), 'tradedesk-web-'));
    mkdirSync(path.join(web, 'assets'));
    writeFileSync(path.join(web, 'index.html'), '<!doctype html>');
    writeFileSync(path.join(web, 'assets', 'a-1.js.map'), '{"version":3}');
    const h = await createHarness(dbTargets[0]!, { webDist: web, serveSourceMaps: true });
    try {
      const res = await h.request('GET', '/assets/a-1.js.map');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ version: 3 });
    } finally {
      await h.close();
      rmSync(web, { recursive: true, force: true });
    }
  });
});
