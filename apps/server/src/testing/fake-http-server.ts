import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the fake received it, for tests to check its shape. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A JSON answer, or `hang` to never answer (time-out tests). */
export type FakeReply = { status: number; body: unknown } | 'hang';

export interface FakeHttpServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A local HTTP server on a free port whose answers the protocol fakes decide. */
export async function startFakeHttpServer(
  handle: (req: RecordedRequest) => FakeReply,
): Promise<FakeHttpServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        // Not JSON: kept as text so the test can see what arrived.
      }
      const recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      const reply = handle(recorded);
      if (reply === 'hang') {
        held.push(res);
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What a model fake answers next: a text as the model's output, an HTTP error, or nothing at all. */
export type ModelBehaviour =
  { kind: 'answer'; text: string } | { kind: 'error'; status: number; message: string } | { kind: 'hang' };

export interface FakeModelServer extends FakeHttpServer {
  /** The model's output text for the next requests (e.g. a JSON analysis, or something invalid). */
  answer(text: string): void;
  fail(status: number, message: string): void;
  hang(): void;
}

/** The behaviour switch every model fake shares; the protocol module supplies routing and shapes. */
export async function startFakeModelServer(
  route: (req: RecordedRequest, behaviour: ModelBehaviour) => FakeReply,
): Promise<FakeModelServer> {
  let behaviour: ModelBehaviour = { kind: 'answer', text: '{}' };
  const server = await startFakeHttpServer((req) => route(req, behaviour));
  return {
    ...server,
    answer: (text) => void (behaviour = { kind: 'answer', text }),
    fail: (status, message) => void (behaviour = { kind: 'error', status, message }),
    hang: () => void (behaviour = { kind: 'hang' }),
  };
}
