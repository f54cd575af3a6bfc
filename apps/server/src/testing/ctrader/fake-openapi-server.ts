/**
 * A small cTrader Open API server for the test suite, speaking the JSON port's messages over
 * WebSocket: application and account auth, account list by token, trader, assets, symbols (light
 * and full), spots it pushes, market orders filling at bid/ask, limit orders filling when crossed,
 * SL/TP, amend, full and partial close, cancel, reconcile, deals, trendbars, unrealised P/L and
 * heartbeats. Switches: `errorMode` (every request answered with ProtoOAErrorRes), `dropConnections()`
 * and `stop()`/`start()` to take it down and bring it back on the same port.
 *
 * This file is the server and the switches tests drive; the parts live beside it: state
 * (fake-openapi-state), frames and message shapes (fake-openapi-wire), answers to requests
 * (fake-openapi-requests) and the trade server with its matching engine (fake-openapi-trading).
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { PRICE_SCALE, PT, type OpenApiFrame } from '../../brokers/ctrader/protocol';
import { handleRequest } from './fake-openapi-requests';
import {
  accountState,
  createOpenApiState,
  type AccountState,
  type FakeOpenApiOptions,
  type FakeSymbol,
  type OpenApiState,
  type Session,
} from './fake-openapi-state';
import { afterPriceChange } from './fake-openapi-trading';
import { sendTo } from './fake-openapi-wire';

export type { FakeAccount, FakeOpenApiOptions } from './fake-openapi-state';

export class FakeOpenApiServer {
  private wss: WebSocketServer | undefined;
  private port = 0;
  private readonly st: OpenApiState;
  readonly symbols: FakeSymbol[];
  private tickTimer: NodeJS.Timeout | undefined;
  private tickN = 0;

  constructor(private readonly opts: FakeOpenApiOptions) {
    this.st = createOpenApiState(opts);
    this.symbols = this.st.symbols;
  }

  /** When set, every request after the socket opens is answered with ProtoOAErrorRes of this code. */
  get errorMode(): string | null {
    return this.st.errorMode;
  }
  set errorMode(code: string | null) {
    this.st.errorMode = code;
  }

  /** When true the server goes silent (a half-open link): it neither answers nor sends heartbeats. */
  get frozen(): boolean {
    return this.st.frozen;
  }
  set frozen(frozen: boolean) {
    this.st.frozen = frozen;
  }

  /** ProtoHeartbeatEvents received from clients. */
  get heartbeatsReceived(): number {
    return this.st.heartbeatsReceived;
  }

  /** payloadTypes received, in order (heartbeats excluded). */
  get received(): OpenApiFrame[] {
    return this.st.received;
  }

  /** Max trendbars per answer before hasMore. */
  get trendbarChunk(): number {
    return this.st.trendbarChunk;
  }
  set trendbarChunk(n: number) {
    this.st.trendbarChunk = n;
  }

  get url(): string {
    return `ws://127.0.0.1:${this.port}`;
  }

  get connectionCount(): number {
    return this.st.sessions.size;
  }

  account(ctid: number): AccountState {
    return accountState(this.st, ctid);
  }

  async start(): Promise<this> {
    const wss = new WebSocketServer({ port: this.port, host: '127.0.0.1' });
    await new Promise<void>((resolve, reject) => {
      wss.once('listening', resolve);
      wss.once('error', reject);
    });
    this.wss = wss;
    this.port = (wss.address() as AddressInfo).port;
    wss.on('connection', (ws) => this.onConnection(ws));
    const heartbeat = this.opts.heartbeatMs ?? 10_000;
    const hb = setInterval(() => {
      for (const s of this.st.sessions) sendTo(this.st, s, { payloadType: PT.HEARTBEAT_EVENT, payload: {} });
    }, heartbeat);
    hb.unref();
    wss.on('close', () => clearInterval(hb));
    if ((this.opts.tickMs ?? 0) > 0) {
      this.tickTimer = setInterval(() => this.autoTick(), this.opts.tickMs);
      this.tickTimer.unref();
    }
    return this;
  }

  /** Takes the server down (connections are cut); `start()` brings it back on the same port. */
  async stop(): Promise<void> {
    if (this.tickTimer) clearInterval(this.tickTimer);
    this.tickTimer = undefined;
    const wss = this.wss;
    this.wss = undefined;
    this.dropConnections();
    if (wss) await new Promise<void>((resolve) => wss.close(() => resolve()));
  }

  /** Cuts every open connection without stopping the server. */
  dropConnections(): void {
    for (const s of this.st.sessions) s.ws.terminate();
    this.st.sessions.clear();
  }

  /** Moves a symbol's price (in price units) and runs the matching engine. */
  setPrice(name: string, bid: number, ask: number): void {
    const sym = this.symbols.find((s) => s.name.replace('/', '') === name.replace('/', ''));
    if (!sym) throw new Error(`no fake symbol ${name}`);
    sym.bid = Math.round(bid * PRICE_SCALE);
    sym.ask = Math.round(ask * PRICE_SCALE);
    afterPriceChange(this.st, sym);
  }

  private onConnection(ws: WebSocket): void {
    const st = this.st;
    const s: Session = { ws, appAuthed: false, accounts: new Set(), spots: new Map() };
    st.sessions.add(s);
    ws.on('close', () => st.sessions.delete(s));
    ws.on('message', (data) => {
      let f: OpenApiFrame;
      try {
        f = JSON.parse(data.toString()) as OpenApiFrame;
      } catch {
        return sendTo(st, s, {
          payloadType: PT.ERROR_RES,
          payload: { errorCode: 'INVALID_REQUEST', description: 'Malformed JSON' },
        });
      }
      if (st.frozen) return;
      if (f.payloadType === PT.HEARTBEAT_EVENT) {
        st.heartbeatsReceived++;
        return;
      }
      st.received.push(f);
      try {
        handleRequest(st, s, f);
      } catch (e) {
        sendTo(st, s, {
          clientMsgId: f.clientMsgId,
          payloadType: PT.ERROR_RES,
          payload: { errorCode: 'UNKNOWN_ERROR', description: String(e) },
        });
      }
    });
  }

  /** A small wiggle of every symbol, pushed to subscribers and run through the matching engine. */
  private autoTick(): void {
    this.tickN++;
    for (const sym of this.symbols) {
      const wiggle = ((this.tickN * 7 + sym.symbolId * 3) % 5) - 2;
      sym.bid += wiggle;
      sym.ask += wiggle;
      afterPriceChange(this.st, sym);
    }
  }
}
