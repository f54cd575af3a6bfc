/**
 * An in-memory MT5 bridge that speaks docs/mt5-bridge.md (HTTP + WebSocket, version 1), for tests and
 * local development: a few symbols on a seeded random walk, market and limit fills, SL/TP on every tick,
 * partial closes, deals, candles, commission and margin, a "down" switch and refused logins.
 *
 * This file is the server and the switches tests drive; the parts live beside it: state
 * (fake-bridge-state), market and money (fake-bridge-market), trade server (fake-bridge-trading),
 * HTTP routes (fake-bridge-http) and stream (fake-bridge-stream).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { WireDeal, WirePosition, WireTick } from '../../brokers/mt5/protocol';
import { onRequest } from './fake-bridge-http';
import { tickOf, withProfit } from './fake-bridge-market';
import {
  createBridgeState,
  mustSymbol,
  round,
  type BridgeState,
  type FakeBridgeOptions,
} from './fake-bridge-state';
import { dropConnections, onUpgrade, setDown } from './fake-bridge-stream';
import { afterPriceChange, closeAt } from './fake-bridge-trading';

export type { FakeAccountSpec, FakeBridgeOptions } from './fake-bridge-state';

export class FakeMt5Bridge {
  /** Base URL to give the adapter (`http://127.0.0.1:<port>`). */
  url = '';

  private readonly st: BridgeState;
  private readonly server: Server;
  private ticker: NodeJS.Timeout | null = null;

  private constructor(opts: FakeBridgeOptions) {
    const st = (this.st = createBridgeState(opts));
    this.server = createServer((req, res) => void onRequest(st, req, res));
    this.server.keepAliveTimeout = 1000;
    this.server.on('connection', (socket) => {
      if (st.down) {
        st.refusedConnections += 1;
        return void socket.destroy();
      }
      st.sockets.add(socket);
      socket.on('close', () => st.sockets.delete(socket));
    });
    this.server.on('upgrade', (req, socket, head) => onUpgrade(st, req, socket as Socket, head));
  }

  static async start(opts: FakeBridgeOptions): Promise<FakeMt5Bridge> {
    const bridge = new FakeMt5Bridge(opts);
    await new Promise<void>((resolve) => bridge.server.listen(opts.port ?? 0, '127.0.0.1', resolve));
    bridge.url = `http://127.0.0.1:${(bridge.server.address() as AddressInfo).port}`;
    bridge.ticker = setInterval(() => bridge.tick(), opts.tickMs ?? 100);
    return bridge;
  }

  /** Order requests that reached the trade server (duplicates replayed from the client id are not counted). */
  get ordersSent(): number {
    return this.st.ordersSent;
  }

  /** Every login attempt, successful or not. */
  get loginAttempts(): number {
    return this.st.loginAttempts;
  }

  /** Connections cut at once while the bridge was down (each is one client attempt). */
  get refusedConnections(): number {
    return this.st.refusedConnections;
  }

  async stop(): Promise<void> {
    if (this.ticker) clearInterval(this.ticker);
    this.hang(false);
    dropConnections(this.st);
    this.st.wss.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /**
   * Down: every open connection is cut and new ones are refused, as when the bridge process or its
   * machine is gone. The market and the terminal's account keep running (stops still trigger).
   * With `loseSessions` (default) the bridge comes back as a fresh process that forgot all sessions.
   */
  setDown(down: boolean, opts: { loseSessions?: boolean } = {}): void {
    if (!down) this.st.downAfter = null;
    setDown(this.st, down, opts.loseSessions !== false);
  }

  /**
   * The next request on `route` (e.g. `POST /orders`) that succeeds is carried out at the terminal,
   * then the bridge goes down (as `setDown(true)`) before answering: an order filled whose answer was
   * lost. `setDown(false)` brings it back.
   */
  downAfter(route: string): void {
    this.st.downAfter = route;
  }

  /** Forgets every session (as after a bridge restart) without cutting connections. */
  expireSessions(): void {
    this.st.sessions.clear();
  }

  /** Hanging: HTTP requests are accepted but never answered (a terminal stuck on a call). */
  hang(hanging = true): void {
    this.st.hanging = hanging;
    if (!hanging) {
      for (const res of this.st.hung) res.destroy();
      this.st.hung.clear();
    }
  }

  /** Muted: connections stay open but the stream sends nothing, not even heartbeats (a hung bridge). */
  mute(muted = true): void {
    this.st.muted = muted;
  }

  /** Stops or restarts the random walk so that a test can set prices itself. */
  freeze(frozen = true): void {
    this.st.frozen = frozen;
  }

  /** Sets the bid (ask follows at the symbol's spread), then runs fills and stops like any tick. */
  setPrice(symbol: string, bid: number): void {
    const s = mustSymbol(this.st, symbol);
    s.bid = round(bid, s.spec.digits);
    s.time = Date.now();
    afterPriceChange(this.st, s);
  }

  price(symbol: string): WireTick {
    return tickOf(mustSymbol(this.st, symbol));
  }

  /** Closes a position as if the trader did it in the MT5 mobile app (seen by us only through the bridge). */
  closeExternally(login: number, ticket: number): WireDeal {
    const acc = this.st.accounts.get(login);
    const p = acc?.positions.get(ticket);
    if (!acc || !p) throw new Error(`no position ${ticket}`);
    return closeAt(this.st, acc, p, p.volume, 'MOBILE');
  }

  openPositions(login: number): WirePosition[] {
    return [...(this.st.accounts.get(login)?.positions.values() ?? [])].map((p) => withProfit(this.st, p));
  }

  /** One step of the random walk for every symbol, unless frozen. */
  private tick(): void {
    if (this.st.frozen) return;
    for (const s of this.st.symbols.values()) {
      const move = (this.st.random() - 0.5) * 2 * s.step;
      s.bid = round(Math.max(s.step, s.bid + move), s.spec.digits);
      s.time = Date.now();
      afterPriceChange(this.st, s);
    }
  }
}
