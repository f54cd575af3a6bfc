import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorBody,
  STATEMENT_MAX_BYTES,
  STATEMENT_MESSAGES,
  statementImport,
  statementImportForm,
  statementImportQuery,
  uuidParam,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { badRequest, HttpError } from '../../lib/http-error';
import { statementImportService } from './statement-import.service';

export function registerStatementImportRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = statementImportService(ctx);
  const tooLarge = () => new HttpError(413, STATEMENT_MESSAGES.tooLarge);

  r.post(
    '/api/history/accounts/:id/import/',
    {
      schema: {
        tags: ['history'],
        summary: 'Imports a broker statement into the account history (dry_run=1: the preview only)',
        params: uuidParam,
        querystring: statementImportQuery,
        multipart: statementImportForm,
        response: { 200: statementImport, 400: errorBody, 401: errorBody, 404: errorBody, 413: errorBody },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw badRequest(STATEMENT_MESSAGES.notMultipart);
      let file: Buffer | undefined;
      try {
        for await (const part of request.parts({ limits: { fileSize: STATEMENT_MAX_BYTES, files: 1 } })) {
          if (part.type !== 'file') continue;
          const data = await part.toBuffer();
          if (part.file.truncated) throw tooLarge();
          if (part.fieldname === 'file') file = data;
        }
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (e instanceof HttpError) throw e;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        if (code === 'FST_FILES_LIMIT') throw badRequest('Send one file per request.');
        if (code?.startsWith('FST_')) throw badRequest(STATEMENT_MESSAGES.notMultipart);
        throw e;
      }
      return service.importStatement(request.user, request.params.id, request.query, file);
    },
  );
}
