import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { BrokerError } from '../types';
import { PT, type OpenApiFrame } from './protocol';

/** An error answer of the Open API (ProtoOAErrorRes 2142, ProtoErrorRes 50 or ProtoOAOrderErrorEvent 2132). */
export class OpenApiError extends Error {
  constructor(
    readonly errorCode: string,
    readonly description: string | undefined,
    readonly payloadType: number,
  ) {
    super(description ? `${description} (${errorCode})` : errorCode);
    this.name = 'OpenApiError';
  }
}

const AUTH_CODES = new Set([
  'OA_AUTH_TOKEN_EXPIRED',
  'ACCOUNT_NOT_AUTHORIZED',
  'CH_CLIENT_AUTH_FAILURE',
  'CH_CLIENT_NOT_AUTHENTICATED',
  'CH_ACCESS_TOKEN_INVALID',
  'CH_OA_CLIENT_NOT_FOUND',
  'RET_ACCOUNT_DISABLED',
  'RET_NO_SUCH_LOGIN',
]);
const NOT_FOUND_CODES = new Set([
  'POSITION_NOT_FOUND',
  'ORDER_NOT_FOUND',
  'SYMBOL_NOT_FOUND',
  'UNKNOWN_SYMBOL',
  'ENTITY_NOT_FOUND',
  'CH_CTID_TRADER_ACCOUNT_NOT_FOUND',
  'POSITION_NOT_OPEN',
]);
const UNAVAILABLE_CODES = new Set([
  'CH_SERVER_NOT_REACHABLE',
  'SERVER_IS_UNDER_MAINTENANCE',
  'CANT_ROUTE_REQUEST',
  'TIMEOUT_ERROR',
  'REQUEST_FREQUENCY_EXCEEDED',
  'BLOCKED_PAYLOAD_TYPE',
  'CONNECTIONS_LIMIT_EXCEEDED',
]);

/** Maps any failure of the Open API onto the broker layer's error, with a message a trader can read. */
export function toBrokerError(e: unknown): BrokerError {
  if (e instanceof BrokerError) return e;
  if (e instanceof OpenApiError) {
    const kind = AUTH_CODES.has(e.errorCode)
      ? 'auth'
      : NOT_FOUND_CODES.has(e.errorCode)
        ? 'not_found'
        : UNAVAILABLE_CODES.has(e.errorCode)
          ? 'unavailable'
          : 'rejected';
    return new BrokerError(`cTrader: ${e.message}`, kind);
  }
  const msg = e instanceof Error ? e.message : String(e);
  return new BrokerError(`cTrader is unreachable: ${msg}`, 'unavailable');
}

export interface ConnectionOptions {
  /** Interval of the ProtoHeartbeatEvent we send; the link is considered dead after 3 silent intervals. */
  heartbeatMs?: number;
  requestTimeoutMs?: number;
  connectTimeoutMs?: number;
}

type Waiter = {
  match: (f: OpenApiFrame) => 'resolve' | 'reject' | undefined;
  resolve: (f: OpenApiFrame) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
};

const ERROR_TYPES: ReadonlySet<number> = new Set([PT.ERROR_RES, PT.ERROR_RES_OA, PT.ORDER_ERROR_EVENT]);

export function frameError(f: OpenApiFrame): OpenApiError {
  const p = f.payload ?? {};
  return new OpenApiError(
    String(p.errorCode ?? (f.payloadType === PT.EXECUTION_EVENT ? 'ORDER_REJECTED' : 'UNKNOWN_ERROR')),
    typeof p.description === 'string' ? p.description : undefined,
    f.payloadType,
  );
}

/**
 * One WebSocket to the Open API JSON port: request/response matched by clientMsgId, errors turned
 * into rejections, heartbeats both ways, and a stream of every frame for events.
 */
export class OpenApiConnection {
  private ws: WebSocket | undefined;
  private readonly waiters = new Set<Waiter>();
  private readonly frameListeners = new Set<(f: OpenApiFrame) => void>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  private heartbeat: NodeJS.Timeout | undefined;
  private lastSeen = 0;
  private closed = false;
  private readonly heartbeatMs: number;
  readonly requestTimeoutMs: number;
  private readonly connectTimeoutMs: number;

  constructor(
    readonly url: string,
    opts: ConnectionOptions = {},
  ) {
    this.heartbeatMs = opts.heartbeatMs ?? 10_000;
    this.requestTimeoutMs = opts.requestTimeoutMs ?? 15_000;
    this.connectTimeoutMs = opts.connectTimeoutMs ?? 10_000;
  }

  get isOpen(): boolean {
    return !this.closed && this.ws?.readyState === WebSocket.OPEN;
  }

  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const ws = new WebSocket(this.url, { handshakeTimeout: this.connectTimeoutMs });
      this.ws = ws;
      ws.on('open', () => {
        settled = true;
        this.lastSeen = Date.now();
        this.heartbeat = setInterval(() => this.beat(), this.heartbeatMs);
        this.heartbeat.unref();
        resolve();
      });
      ws.on('message', (data) => this.receive(data.toString()));
      ws.on('error', (err) => {
        if (!settled) {
          settled = true;
          this.closed = true;
          reject(err);
        }
      });
      ws.on('close', (code, reason) => {
        if (!settled) {
          settled = true;
          reject(new Error(`connection closed (${code})`));
        }
        this.shutdown(`connection closed (${code}${reason.length ? `: ${reason.toString()}` : ''})`);
      });
    });
  }

  close(): void {
    if (this.closed) return;
    this.ws?.close();
    this.shutdown('closed by client');
  }

  onFrame(fn: (f: OpenApiFrame) => void): () => void {
    this.frameListeners.add(fn);
    return () => void this.frameListeners.delete(fn);
  }

  onClose(fn: (reason: string) => void): () => void {
    this.closeListeners.add(fn);
    return () => void this.closeListeners.delete(fn);
  }

  /** Sends one frame and returns its clientMsgId. */
  send(payloadType: number, payload: Record<string, unknown>, clientMsgId: string = randomUUID()): string {
    if (!this.isOpen || !this.ws)
      throw new BrokerError('cTrader is unreachable: not connected', 'unavailable');
    this.ws.send(JSON.stringify({ clientMsgId, payloadType, payload }));
    return clientMsgId;
  }

  /** Waits for the first frame `match` accepts (or rejects). */
  waitFor(match: Waiter['match'], timeoutMs = this.requestTimeoutMs): Promise<OpenApiFrame> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new BrokerError('cTrader is unreachable: not connected', 'unavailable'));
      const w: Waiter = {
        match,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(w);
          reject(new BrokerError('cTrader did not answer in time', 'unavailable'));
        }, timeoutMs),
      };
      this.waiters.add(w);
    });
  }

  /** Sends a request and resolves with the answer of one of `expect` types carrying the same clientMsgId. */
  async request(
    payloadType: number,
    payload: Record<string, unknown>,
    expect: number | readonly number[],
    timeoutMs = this.requestTimeoutMs,
  ): Promise<OpenApiFrame> {
    const expected = new Set([expect].flat());
    const id = randomUUID();
    const answer = this.waitFor((f) => {
      if (f.clientMsgId !== id) return undefined;
      if (ERROR_TYPES.has(f.payloadType)) return 'reject';
      return expected.has(f.payloadType) ? 'resolve' : undefined;
    }, timeoutMs);
    try {
      this.send(payloadType, payload, id);
    } catch (e) {
      answer.catch(() => undefined);
      throw e;
    }
    return answer;
  }

  private beat(): void {
    if (!this.isOpen) return;
    if (Date.now() - this.lastSeen > this.heartbeatMs * 3) {
      // Nothing heard (not even a heartbeat) for too long: the link is dead even if TCP has not noticed.
      this.ws?.terminate();
      this.shutdown('no heartbeat from server');
      return;
    }
    try {
      this.send(PT.HEARTBEAT_EVENT, {});
    } catch {
      /* closing */
    }
  }

  private receive(text: string): void {
    this.lastSeen = Date.now();
    let f: OpenApiFrame;
    try {
      const raw = JSON.parse(text) as Record<string, unknown>;
      f = {
        clientMsgId: typeof raw.clientMsgId === 'string' ? raw.clientMsgId : undefined,
        payloadType: Number(raw.payloadType),
        payload: (raw.payload && typeof raw.payload === 'object' ? raw.payload : {}) as Record<
          string,
          unknown
        >,
      };
    } catch {
      return;
    }
    if (f.payloadType === PT.HEARTBEAT_EVENT) return;
    for (const w of [...this.waiters]) {
      const verdict = w.match(f);
      if (!verdict) continue;
      this.waiters.delete(w);
      clearTimeout(w.timer);
      if (verdict === 'resolve') w.resolve(f);
      else w.reject(frameError(f));
    }
    for (const fn of this.frameListeners) fn(f);
  }

  private shutdown(reason: string): void {
    if (this.closed && !this.heartbeat && this.waiters.size === 0) return;
    const first = !this.closed;
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.reject(new BrokerError(`cTrader is unreachable: ${reason}`, 'unavailable'));
    }
    this.waiters.clear();
    if (first) for (const fn of this.closeListeners) fn(reason);
  }
}
