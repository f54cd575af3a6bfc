import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { knownErrorToHttp } from '../lib/error-status';

/**
 * zod's own words for a missing field ("Invalid input: expected string, received undefined") reach the
 * trader as `field: ...` on screen; say it plainly. Schema-specific messages pass through unchanged.
 */
function fieldMessage(keyword: string, message: string | undefined): string {
  if (keyword === 'invalid_type' && /received undefined$/.test(message ?? ''))
    return 'This field is required.';
  return message ?? 'Invalid value.';
}

/** Turns every failure into `{detail}` with the right status; 5xx details are hidden and logged. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const known = knownErrorToHttp(err);
    if (known) return reply.status(known.statusCode).send({ detail: known.detail });
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string[]> = {};
      for (const v of err.validation) {
        const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
        const key =
          path ||
          (err.validationContext === 'body' ? 'non_field_errors' : (err.validationContext ?? 'request'));
        (fields[key] ??= []).push(fieldMessage(v.keyword, v.message));
      }
      return reply.status(400).send({ detail: fields });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err, issues: err.cause.issues }, 'response did not match its schema');
      return reply.status(500).send({ detail: `Internal server error (reference ${request.id}).` });
    }
    const status = err.statusCode ?? 500;
    if (status < 500) {
      const detail =
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError
          ? 'JSON parse error: the request body is not valid JSON.'
          : err.message;
      return reply.status(status).send({ detail });
    }
    request.log.error({ err }, 'request failed');
    return reply.status(status).send({ detail: `Internal server error (reference ${request.id}).` });
  });
}
