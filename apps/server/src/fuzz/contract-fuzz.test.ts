import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, describeEachDb, type Harness } from '../test/harness';
import { WEDNESDAY } from '../test/sim-clock';
import { arbitraryFor, type JsonSchema } from './json-schema-arbitrary';

/**
 * Schema-driven fuzzing of every operation: requests built from the contract's schemas (as the OpenAPI
 * document states them, generated from the zod schemas), mostly valid, sometimes hostile. No answer
 * may be a 5xx, except a 502 or 503 the operation documents (a broker that is down or not set up).
 */
const RUNS_PER_DB = 1000;

type Param = { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: JsonSchema };
type Op = {
  parameters?: Param[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses: Record<string, unknown>;
};

describeEachDb('contract fuzz', (target) => {
  let h: Harness;
  let ops: Array<{ method: string; path: string; op: Op }>;
  let token: string;
  let ids: string[];
  beforeAll(async () => {
    h = await createHarness(target, { simNow: () => WEDNESDAY });
    const doc = (await h.request('GET', '/api/openapi.json')).json() as {
      paths: Record<string, Record<string, Op>>;
    };
    ops = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => !op.requestBody?.content?.['multipart/form-data'])
        .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
    );
    const staff = await h.user('fuzzer', { staff: true });
    token = staff.token;
    const accounts = (await h.request('GET', '/api/accounts/', { token })).json() as Array<{ id: string }>;
    ids = accounts.map((a) => a.id);
  });
  afterAll(() => h.close());

  it(`answers ${RUNS_PER_DB} generated requests over every operation without an undocumented 5xx`, async () => {
    const request = fc.integer({ min: 0, max: ops.length - 1 }).chain((i) => {
      const { method, path, op } = ops[i]!;
      const params = op.parameters ?? [];
      const pathValues = fc.record(
        Object.fromEntries(
          params
            .filter((p) => p.in === 'path')
            .map((p) => [p.name, fc.oneof(fc.constantFrom(...ids), arbitraryFor(p.schema))]),
        ),
      );
      const query = fc.record(
        Object.fromEntries(
          params.filter((p) => p.in === 'query').map((p) => [p.name, arbitraryFor(p.schema)]),
        ),
        { requiredKeys: [] },
      );
      const schema = op.requestBody?.content?.['application/json']?.schema;
      const body = schema ? arbitraryFor(schema) : fc.constant(undefined);
      return fc.record({
        i: fc.constant(i),
        method: fc.constant(method),
        path: fc.constant(path),
        pathValues,
        query,
        body,
        authed: fc.boolean().map((b) => b || Math.random() < 0.8),
      });
    });

    let sent = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const url =
          r.path.replace(/\{(\w+)\}/g, (_, k: string) => encode(String(r.pathValues[k]))) +
          queryString(r.query);
        const res = await h.request(r.method as 'GET', url, {
          ...(r.authed ? { token } : {}),
          ...(r.body !== undefined && r.method !== 'GET' ? { body: r.body } : {}),
          ip: `10.99.${sent % 250}.${++sent % 250}`,
        });
        const documented =
          (res.statusCode === 502 || res.statusCode === 503) && ops[r.i]!.op.responses[res.statusCode];
        if (res.statusCode >= 500 && !documented)
          throw new Error(`${r.method} ${url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
      }),
      { numRuns: RUNS_PER_DB, seed: 20_261_122, endOnFailure: true },
    );
    expect(sent).toBeGreaterThanOrEqual(RUNS_PER_DB);
  }, 120_000);
});

function queryString(q: Record<string, unknown>): string {
  const parts = Object.entries(q)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encode(k)}=${encode(typeof v === 'string' ? v : JSON.stringify(v))}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** Percent-encodes like a browser; a lone surrogate (which a client can only send as broken bytes) as such. */
function encode(s: string): string {
  return s
    .split(/([\ud800-\udfff])/)
    .map((part) => (/^[\ud800-\udfff]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
    .join('');
}
