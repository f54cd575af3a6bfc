import { z } from 'zod';
import { errorBody } from '@tradedesk/contract';
import type { RouteInfo } from '../app';

type Operation = {
  security?: unknown[];
  parameters?: unknown[];
  requestBody?: { content?: Record<string, unknown> };
  responses?: Record<string, { description?: string; content?: unknown }>;
};
type Doc = { paths?: Record<string, Record<string, Operation>> };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Answers of routes that send no JSON (or check credentials themselves), which no route schema states. */
const NON_JSON: Record<string, Array<[status: string, description: string]>> = {
  'GET /api/ctrader/api/ctrader/callback/': [['302', 'Redirects to the app with the outcome.']],
  'GET /api/history/accounts/{id}/trades.csv': [['200', 'The trades as text/csv.']],
  'POST /api/chart-snapshots/configs/{id}/execute/': [['200', 'The chart as image/png.']],
  'GET /api/trade_journal/attachments/{id}/file': [
    ['200', 'The image, with its own content type.'],
    ['401', 'Neither a bearer token nor a signed link, or the link has expired.'],
    ['404', 'No such attachment for these credentials.'],
  ],
};
const BODY_METHODS = new Set(['post', 'put', 'patch']);

/**
 * Answers every route can give besides its own, which no route schema states: 400 for a request
 * that fails its schema or the text rule (routes with parameters or a body), 401 without a valid
 * token (protected routes), 413 for a body over the 1 MB limit (routes with a body; attachments: 10 MB),
 * 414 for a path parameter over Fastify's length limit, 503 beside every 502 of a broker route.
 * Public routes say `security: []`.
 */
const COMMON: Record<string, string> = {
  '400': 'The request is not valid: `detail` names each field and what is wrong with it.',
  '401': 'Authentication credentials were not provided, or the token is not valid.',
  '413': 'The request body is too large.',
  '414': 'A path parameter is too long.',
  '415': 'The body is not JSON (Content-Type application/json).',
  '429': 'Too many attempts; wait as the Retry-After header says.',
  '503': "The account's broker is not configured on this server (cTrader application or MT5 bridge).",
};

/** Completes the generated OpenAPI document with what the framework, not the route, answers. */
export function finishOpenApi<T>(doc: T, routes: RouteInfo[]): T {
  const error = {
    description: '',
    content: { 'application/json': { schema: z.toJSONSchema(errorBody, { target: 'openapi-3.0' }) } },
  };
  const add = (op: Operation, status: string) => {
    op.responses ??= {};
    op.responses[status] ??= { ...error, description: COMMON[status]! };
  };
  for (const [path, item] of Object.entries((doc as Doc).paths ?? {})) {
    const url = path.replace(/\{(\w+)\}/g, ':$1');
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const route = routes.find((r) => r.method === method.toUpperCase() && r.url === url);
      if (route?.public) op.security = [];
      else add(op, '401');
      if (op.parameters?.length || op.requestBody) add(op, '400');
      // A route that reaches a broker (502 when it fails) answers 503 when that broker is not set up.
      if (op.responses?.['502']) add(op, '503');
      for (const [status, description] of NON_JSON[`${method.toUpperCase()} ${path}`] ?? [])
        op.responses![status] ??= { description };
      if (BODY_METHODS.has(method)) add(op, '413');
      if (op.requestBody && op.requestBody.content && 'application/json' in op.requestBody.content)
        add(op, '415');
      if (path.includes('{')) add(op, '414');
      for (const [status, res] of Object.entries(op.responses ?? {})) {
        // No body: no content, whatever schema (z.null()) the route gave for serialisation.
        if (status === '204') delete res.content;
        if (!res.description) res.description = status === '204' ? 'No content.' : 'Response.';
      }
    }
  }
  return doc;
}
