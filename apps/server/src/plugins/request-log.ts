import type { FastifyInstance } from 'fastify';

/**
 * One line per request, and only when it matters: errors (5xx) at error, slow requests at warn, the
 * rest at debug (seen only with LOG_LEVEL=debug). Fastify's own two info lines per request are off
 * (`disableRequestLogging`). The line carries the path without its query string, so signed links
 * (`?token=`) and other query secrets never reach the log.
 */
export function registerRequestLog(app: FastifyInstance, slowMs: number): void {
  app.addHook('onResponse', async (request, reply) => {
    const ms = Math.round(reply.elapsedTime);
    const status = reply.statusCode;
    const line = {
      method: request.method,
      path: request.url.split('?')[0],
      route: request.routeOptions.url,
      status,
      ms,
    };
    if (status >= 500) request.log.error(line, 'request failed');
    else if (ms >= slowMs) request.log.warn(line, 'slow request');
    else request.log.debug(line, 'request');
  });
}
