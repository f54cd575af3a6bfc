import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import {
  botPosition,
  botPositionsQuery,
  errorBody,
  liveRun,
  liveRunDetail,
  liveRunListQuery,
  liveRunLogLine,
  liveRunLogsQuery,
  liveRunStart,
  liveRunStartResponse,
  liveRunStop,
  stopAllResponse,
  uuidParam,
  WS_CLOSE,
  type LiveRunSocketMessage,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { authoriseSocket, closeSocket } from '../../lib/socket-auth';
import { liveRunEvents } from './live-run-events';
import { liveRunManager } from './live-run-manager';
import { liveRunsService } from './live-runs.service';

const errors = { 400: errorBody, 404: errorBody };
/** Lines a socket gets first, before the new ones. */
const SOCKET_BACKLOG = 200;

export function registerLiveRunRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const runs = liveRunsService(ctx);
  const tags = ['bots'];
  const manager = liveRunManager(ctx);
  ctx.onShutdown(() => manager.close());
  // After the job runner and trade sync are set up: resume the runs a previous process left RUNNING.
  app.addHook('onReady', () => {
    manager.resumeAll().catch((err: unknown) => ctx.log.error({ err }, 'live runs did not resume'));
  });

  r.post(
    '/api/bots/live-runs/start/',
    {
      schema: {
        tags,
        body: liveRunStart,
        response: { 201: liveRunStartResponse, ...errors, 409: errorBody, 422: errorBody, 502: errorBody },
      },
    },
    async (req, reply) => reply.status(201).send(await runs.start(req.user, req.body)),
  );
  r.get(
    '/api/bots/live-runs/',
    { schema: { tags, querystring: liveRunListQuery, response: { 200: z.array(liveRun), ...errors } } },
    (req) => runs.list(req.user, req.query.bot_version_id),
  );
  r.post('/api/bots/live-runs/stop-all/', { schema: { tags, response: { 200: stopAllResponse } } }, (req) =>
    runs.stopAll(req.user),
  );
  r.get(
    '/api/bots/live-runs/positions/',
    { schema: { tags, querystring: botPositionsQuery, response: { 200: z.array(botPosition), ...errors } } },
    (req) => runs.botPositions(req.user, req.query.account_id),
  );
  r.get(
    '/api/bots/live-runs/:id/',
    { schema: { tags, params: uuidParam, response: { 200: liveRunDetail, ...errors } } },
    (req) => runs.detail(req.user, req.params.id),
  );
  r.post(
    '/api/bots/live-runs/:id/stop/',
    { schema: { tags, params: uuidParam, body: liveRunStop, response: { 200: liveRunDetail, ...errors } } },
    (req) => runs.stop(req.user, req.params.id, req.body?.close_positions === true),
  );
  r.get(
    '/api/bots/live-runs/:id/logs/',
    {
      schema: {
        tags,
        params: uuidParam,
        querystring: liveRunLogsQuery,
        response: { 200: z.array(liveRunLogLine), ...errors },
      },
    },
    (req) => runs.logs(req.user, req.params.id, req.query.limit),
  );

  app.get<{ Params: { id: string }; Querystring: { token?: string } }>(
    '/ws/live-runs/:id',
    // warn: the access token may sit in the query string, and info-level request lines would log the URL.
    { websocket: true, schema: { hide: true }, logLevel: 'warn' },
    (socket: WebSocket, request) => {
      let unsubscribe: (() => void) | undefined;
      socket.on('close', () => unsubscribe?.());
      const send = (m: LiveRunSocketMessage) => {
        if (socket.readyState === 1) socket.send(JSON.stringify(m));
      };
      authoriseSocket(socket, ctx.tokens, request.query.token, (user) => {
        void (async () => {
          const run = await runs.runOr404(user, request.params.id).catch(() => null);
          if (!run) return closeSocket(socket, WS_CLOSE.notFound, 'Live run not found.');
          // Subscribe first, then send the backlog: a line logged in between is sent once (by seq).
          const pending: LiveRunSocketMessage[] = [];
          let ready = false;
          let lastSeq = 0;
          const deliver = (m: LiveRunSocketMessage) => {
            if (m.type === 'log') {
              if (m.line.seq <= lastSeq) return;
              lastSeq = m.line.seq;
            }
            send(m);
          };
          unsubscribe = liveRunEvents(ctx).subscribe(run.id, (m) => (ready ? deliver(m) : pending.push(m)));
          if (socket.readyState !== 1) return unsubscribe();
          send({ type: 'status', status: run.status });
          for (const line of await runs.logs(user, run.id, SOCKET_BACKLOG)) deliver({ type: 'log', line });
          ready = true;
          for (const m of pending) deliver(m);
        })().catch((err: unknown) => {
          request.log.error({ err }, 'live run socket failed');
          closeSocket(socket, 1011, 'Internal error.');
        });
      });
    },
  );
}
