import type { FastifyInstance } from 'fastify';

type Doc = { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };

/**
 * Records every answer whose status the OpenAPI document does not declare for its route, as
 * `METHOD /route STATUS`. Installed by the test harness on every app, so the whole integration suite
 * checks the document against what the routes really answer.
 */
export function auditDeclaredStatuses(app: FastifyInstance): Set<string> {
  const undeclared = new Set<string>();
  let doc: Doc | undefined;
  app.addHook('onResponse', async (request, reply) => {
    const url = request.routeOptions.url;
    if (!url || !url.startsWith('/api/') || url.startsWith('/api/docs')) return;
    doc ??= app.swagger() as unknown as Doc;
    const op = doc.paths[url.replace(/:(\w+)/g, '{$1}')]?.[request.method.toLowerCase()];
    if (!op) return; // hidden from the document (e.g. the document itself)
    // A 500 is a fault, never a documented answer (the fuzz test hunts for them).
    if (reply.statusCode === 500) return;
    const status = String(reply.statusCode);
    if (!op.responses?.[status]) {
      undeclared.add(`${request.method} ${url} ${status}`);
    }
  });
  return undeclared;
}
