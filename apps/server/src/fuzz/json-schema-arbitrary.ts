import fc from 'fast-check';

/** The JSON Schema subset the contract's zod schemas turn into (through the OpenAPI document). */
export interface JsonSchema {
  type?: string | string[];
  nullable?: boolean;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minItems?: number;
  maxItems?: number;
}

/** Values an attacker tries first: control characters, broken Unicode, huge and odd numbers. */
export const hostile = fc.constantFrom<unknown>(
  'a\u0000b',
  '\ud800',
  '\udfff x',
  'x'.repeat(5000),
  '',
  ' ',
  '../../etc/passwd',
  "'; drop table users; --",
  '1e308',
  'NaN',
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  -1,
  0,
  0.1 + 0.2,
  true,
  null,
  [],
  {},
  { __proto__: { admin: true } },
);

/**
 * Values mostly valid for `schema`, sometimes not: each field is now and then replaced by a hostile
 * value, so that both the handlers (valid input) and the validation (invalid input) get exercised.
 */
export function arbitraryFor(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 5) return fc.oneof(fc.string(), fc.integer(), hostile);
  const valid = validFor(schema, depth);
  return fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: hostile });
}

function validFor(s: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const alts = s.anyOf ?? s.oneOf;
  if (alts?.length) return fc.oneof(...alts.map((a) => arbitraryFor(a, depth + 1)));
  if (s.allOf?.length) return arbitraryFor(s.allOf[0], depth + 1);
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  if ('const' in s) return fc.constant(s.const);
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : ['string'];
  const out: Array<fc.Arbitrary<unknown>> = [];
  if (s.nullable || types.includes('null')) out.push(fc.constant(null));
  for (const t of types) {
    if (t === 'string') out.push(stringFor(s));
    else if (t === 'integer')
      out.push(fc.integer({ min: bound(s.minimum, -1e6), max: bound(s.maximum, 1e6) }));
    else if (t === 'number')
      out.push(fc.double({ min: bound(s.minimum, -1e6), max: bound(s.maximum, 1e6), noNaN: true }));
    else if (t === 'boolean') out.push(fc.boolean());
    else if (t === 'array')
      out.push(
        fc.array(arbitraryFor(s.items, depth + 1), {
          minLength: Math.min(s.minItems ?? 0, 5),
          maxLength: Math.min(s.maxItems ?? 4, 4),
        }),
      );
    else if (t === 'object') out.push(objectFor(s, depth));
  }
  return out.length ? fc.oneof(...out) : fc.anything();
}

const bound = (v: number | undefined, fallback: number) =>
  typeof v === 'number' && Number.isFinite(v) ? Math.max(-1e9, Math.min(1e9, v)) : fallback;

function stringFor(s: JsonSchema): fc.Arbitrary<string> {
  if (s.pattern) {
    try {
      return fc.stringMatching(new RegExp(s.pattern), { size: 'small' });
    } catch {
      // a pattern fast-check cannot generate from: plain strings below
    }
  }
  const min = s.minLength ?? 0;
  const max = Math.max(min, Math.min(s.maxLength ?? 30, 30));
  const plain = fc.string({ minLength: min, maxLength: max, unit: 'grapheme' });
  // Within the length limits, with a character a database may not store as sent (NUL, half a pair).
  const broken = fc
    .tuple(
      fc.string({ minLength: Math.max(0, min - 1), maxLength: Math.max(0, max - 1) }),
      fc.constantFrom('\u0000', '\ud800', '\udc00'),
    )
    .map(([text, bad]) => text + bad);
  return max >= 1 ? fc.oneof({ weight: 4, arbitrary: plain }, { weight: 1, arbitrary: broken }) : plain;
}

function objectFor(s: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const props = s.properties ?? {};
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, v] of Object.entries(props)) record[k] = arbitraryFor(v, depth + 1);
  const required = (s.required ?? []).filter((k) => k in props);
  return fc.record(record, { requiredKeys: required });
}
