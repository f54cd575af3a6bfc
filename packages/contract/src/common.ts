import { z } from 'zod';

/** Every error the API returns has this shape (DESIGN.md section 4). */
export const errorBody = z.object({
  detail: z.union([z.string(), z.array(z.string()), z.record(z.string(), z.array(z.string()))]),
});
export type ErrorBody = z.infer<typeof errorBody>;

/** NUL, or half of a UTF-16 surrogate pair: PostgreSQL refuses the first and mangles the second. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this rule looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const TEXT_MESSAGE = 'Text may not contain NUL characters or unpaired UTF-16 surrogates.';

/**
 * The one string rule of every text field the API accepts: text that both databases store as sent.
 * Refused with 400 and a field message, the same on SQLite and PostgreSQL.
 */
export const isStorableText = (s: string): boolean => !UNSTORABLE.test(s);
export const text = () => z.string().refine(isStorableText, TEXT_MESSAGE);

export const uuidParam = z.object({ id: text().min(1).max(64) });

/** Route params naming one of the user's trading accounts, and a symbol of it. */
export const accountParam = z.object({ account: text().min(1).max(64) });
export const accountSymbolParams = accountParam.extend({ symbol: text().min(1).max(40) });
/** GET /api/get_indicator/{symbol}/{timeframe}/ATR. */
export const indicatorParams = z.object({
  symbol: z.string().min(1).max(40),
  timeframe: z.string().min(1).max(10),
});

/** ISO 8601 UTC instant on the wire. */
export const isoInstant = z.string();

export const healthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  db: z.enum(['ok', 'down']),
  dialect: z.enum(['sqlite', 'postgres']),
  version: z.string(),
});
export type HealthResponse = z.infer<typeof healthResponse>;
