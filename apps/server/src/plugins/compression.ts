import { constants } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';

/**
 * Compresses responses (API JSON, the SPA page) for clients that accept it. Brotli at a low quality
 * costs about as much CPU as gzip and still beats it; built assets are sent precompressed from disk
 * by the static server instead. Must be registered before the static server and the routes.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}
