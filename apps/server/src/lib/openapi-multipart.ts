import { z } from 'zod';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The multipart/form-data body of an upload route, for the OpenAPI document only. It is not a
     * `body` schema because Fastify would validate it against the request body, which is empty: the
     * route reads the parts from the stream itself (file sizes, one file, the messages of its own).
     */
    multipart?: z.ZodObject;
  }
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/**
 * The zod transform of @fastify/swagger, plus the upload routes' forms: `schema.multipart` becomes
 * the request body with content type multipart/form-data, each file part a binary string.
 */
export function openApiTransform(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const out = jsonSchemaTransform(input);
  // The zod transform passes keys it does not know through as they are (a hidden route has none).
  const schema = out.schema as { multipart?: z.ZodObject; body?: unknown; consumes?: string[] } | undefined;
  const form = schema?.multipart;
  if (!schema || !form) return out;
  delete schema.multipart;
  schema.body = z.toJSONSchema(form, {
    target: 'openapi-3.0',
    io: 'input',
    // OpenAPI 3.0 says "binary" with the format alone; the JSON Schema keywords zod adds are not its.
    override: ({ jsonSchema }) => {
      if (jsonSchema.format === 'binary') {
        delete jsonSchema.contentEncoding;
        delete jsonSchema.contentMediaType;
      }
    },
  });
  schema.consumes = ['multipart/form-data'];
  return out;
}
