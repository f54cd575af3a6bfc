import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dbTargets, type Harness } from '../test/harness';

type Op = { security?: unknown[]; responses: Record<string, { content?: unknown }>; requestBody?: unknown };

describe('OpenAPI document', () => {
  let h: Harness;
  let doc: { paths: Record<string, Record<string, Op>> };
  let token: string;
  beforeAll(async () => {
    h = await createHarness(dbTargets[0]!);
    doc = (await h.request('GET', '/api/openapi.json')).json();
    token = (await h.user('reader')).token;
  });
  afterAll(() => h.close());
  const ops = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method, op })),
    );

  it('is a valid OpenAPI 3 document', async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('marks public routes with security: [] and declares 401 on every other one', () => {
    const open = h.routes.filter(
      (r) => r.public && r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'),
    );
    for (const { path, method, op } of ops()) {
      const url = path.replace(/\{(\w+)\}/g, ':$1');
      const isPublic = open.some((r) => r.url === url && r.method.toLowerCase() === method);
      if (isPublic) expect(op.security, `${method} ${path}`).toEqual([]);
      else expect(op.responses['401'], `${method} ${path}`).toBeDefined();
    }
    expect(doc.paths['/api/token/']!.post!.security).toEqual([]);
    expect(doc.paths['/api/token/']!.post!.responses['429']).toBeDefined();
  });

  it('declares 413 where a body is accepted and 414 where a path has a parameter; 204 has no body', () => {
    for (const { path, method, op } of ops()) {
      if (['post', 'put', 'patch'].includes(method))
        expect(op.responses['413'], `${method} ${path}`).toBeDefined();
      if (path.includes('{')) expect(op.responses['414'], `${method} ${path}`).toBeDefined();
      if (op.responses['204']) expect(op.responses['204'].content, `${method} ${path}`).toBeUndefined();
    }
    expect(ops().some(({ op }) => op.responses['204'])).toBe(true);
  });

  it('answers 413 and 414 where it says it does', async () => {
    const big = await h.request('POST', '/api/trades/watchlists/', {
      token,
      body: { instrument: 'x'.repeat(1_100_000), exchange: 'FX' },
    });
    expect(big.statusCode).toBe(413);
    const long = await h.request('GET', `/api/accounts/details/${'a'.repeat(200)}`, { token });
    expect(long.statusCode).toBe(414);
  });
});
