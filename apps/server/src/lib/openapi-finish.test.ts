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

  it('declares the multipart/form-data body of every upload route: the file as binary, the other fields typed', () => {
    type Form = { type: string; properties: Record<string, Record<string, unknown>>; required?: string[] };
    const form = (path: string) => {
      const body = doc.paths[path]!.post!.requestBody as {
        required: boolean;
        content: Record<string, unknown>;
      };
      expect(Object.keys(body.content), path).toEqual(['multipart/form-data']);
      expect(body.required, path).toBe(true);
      return (body.content['multipart/form-data'] as { schema: Form }).schema;
    };
    const binary = { type: 'string', format: 'binary' };

    const attachment = form('/api/trade_journal/attachments/');
    expect(attachment.properties.files).toMatchObject(binary);
    expect(attachment.properties.journal).toMatchObject({ type: 'string', maxLength: 64 });
    expect(attachment.required).toEqual(['journal', 'files']);

    const candles = form('/api/market/candles/import/');
    expect(candles.properties.file).toMatchObject(binary);
    expect(candles.properties.symbol).toMatchObject({ type: 'string', maxLength: 40 });
    expect(candles.properties.utc_offset_minutes).toMatchObject({
      type: 'integer',
      minimum: -720,
      maximum: 840,
    });
    expect(candles.required).toEqual(['symbol', 'file']);

    const statement = form('/api/history/accounts/{id}/import/');
    expect(statement.properties.file).toMatchObject(binary);
    expect(statement.properties.file!.description).toMatch(/MT5 terminal Report/);
    expect(statement.required).toEqual(['file']);

    // A file part is described by its format alone, as OpenAPI 3.0 has it.
    for (const f of [attachment.properties.files, candles.properties.file, statement.properties.file])
      expect(Object.keys(f!).sort()).toEqual(['description', 'format', 'type']);
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
