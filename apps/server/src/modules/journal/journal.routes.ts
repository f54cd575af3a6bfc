import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBody,
  JOURNAL_MESSAGES,
  journalAttachment,
  journalAttachmentForm,
  journalCreate,
  journalEntry,
  journalListQuery,
  journalPage,
  uuidParam,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { HttpError, badRequest } from '../../lib/http-error';
import { bearerToken } from '../../plugins/auth';
import { journalService } from './journal.service';

const tooLarge = () => new HttpError(413, JOURNAL_MESSAGES.tooLarge);

export function registerJournalRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = journalService(ctx);
  const tags = ['journal'];

  r.post(
    '/api/trade_journal/journals/',
    {
      schema: { tags, body: journalCreate, response: { 201: journalEntry, 400: errorBody, 404: errorBody } },
    },
    async (request, reply) => {
      const entry = await service.create(request.user, request.body);
      reply.status(201);
      return entry;
    },
  );

  r.get(
    '/api/trade_journal/journals/',
    {
      schema: {
        tags,
        querystring: journalListQuery,
        response: { 200: journalPage, 400: errorBody, 404: errorBody },
      },
    },
    (request) => service.list(request.user, request.query),
  );

  r.post(
    '/api/trade_journal/attachments/',
    {
      logLevel: 'warn',
      schema: {
        tags,
        summary: 'Attaches one image to a journal entry',
        multipart: journalAttachmentForm,
        response: { 201: journalAttachment, 400: errorBody, 404: errorBody, 413: errorBody },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw badRequest('Send the attachment as multipart/form-data.');
      let journal: string | undefined;
      let file: { data: Buffer; filename: string } | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            const data = await part.toBuffer();
            if (part.file.truncated) throw tooLarge();
            if (!file && (part.fieldname === 'files' || part.fieldname === 'file'))
              file = { data, filename: part.filename };
          } else if (part.fieldname === 'journal' && typeof part.value === 'string') {
            journal = part.value.trim();
          }
        }
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE' || e instanceof HttpError)
          throw e instanceof HttpError ? e : tooLarge();
        if (code === 'FST_FILES_LIMIT') throw badRequest('Send one file per request.');
        throw e;
      }
      const attachment = await service.attach(request.user, journal, file);
      reply.status(201);
      return attachment;
    },
  );

  r.get(
    '/api/trade_journal/attachments/:id/file',
    {
      // Public at the auth hook: <img> tags cannot send a bearer token, so a signed ?token= works too.
      config: { public: true },
      // Like the price WebSocket: only warnings and errors, never a line per image.
      logLevel: 'warn',
      schema: { tags, params: uuidParam, querystring: z.object({ token: z.string().max(200).optional() }) },
    },
    async (request, reply) => {
      const bearer = bearerToken(request);
      const bearerUser = bearer ? await ctx.tokens.verifyAccess(bearer) : null;
      const f = await service.file(request.params.id, { bearerUser, token: request.query.token });
      return reply
        .header('content-type', f.contentType)
        .header('content-length', String(f.size))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=300')
        .header('content-disposition', 'inline')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(createReadStream(f.path));
    },
  );
}
