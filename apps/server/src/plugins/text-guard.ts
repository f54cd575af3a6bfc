import type { FastifyInstance } from 'fastify';
import { isStorableText, TEXT_MESSAGE } from '@tradedesk/contract';
import { badRequest } from '../lib/http-error';

/** The first string in `value` (walked depth first) that breaks the contract's text rule, as a field path. */
function firstUnstorable(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path;
  if (depth > 20 || value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    if (!isStorableText(k)) return path || k;
    const hit = firstUnstorable(v, path ? `${path}.${k}` : k, depth + 1);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/**
 * The contract's string rule (`text()`) for the parts of a request no schema describes: route params
 * declared outside the contract, unknown query and body keys. A NUL or lone surrogate anywhere is a 400
 * naming the field, after the schemas (which answer first for the fields they declare) and before any handler or database sees it, so both databases answer alike.
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    for (const [where, value] of [
      ['params', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const field = firstUnstorable(value, '');
      if (field !== undefined) throw badRequest({ [field || where]: [TEXT_MESSAGE] });
    }
  });
}
