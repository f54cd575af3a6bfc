/**
 * The fake bridge's stream (`GET /v1/stream`): the upgrade with its token and session checks, hello,
 * heartbeats, subscriptions, and the events the trading part broadcasts to an account's clients.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { BRIDGE_TOKEN_HEADER, type ClientMessage, type ServerMessage } from '../../brokers/mt5/protocol';
import { accountOf, tickOf } from './fake-bridge-market';
import type { AccountState, BridgeState, StreamClient } from './fake-bridge-state';

export function bearer(h: string | undefined): string | undefined {
  return h?.startsWith('Bearer ') ? h.slice(7) : undefined;
}

export function onUpgrade(st: BridgeState, req: IncomingMessage, socket: Socket, head: Buffer): void {
  const url = new URL(req.url ?? '/', 'http://bridge');
  const refuse = (status: number, text: string) => {
    socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  };
  if (st.down) return void socket.destroy();
  if (url.pathname !== '/v1/stream') return refuse(404, 'Not Found');
  if (st.opts.bridgeToken && req.headers[BRIDGE_TOKEN_HEADER] !== st.opts.bridgeToken)
    return refuse(401, 'Unauthorized');
  const session = bearer(req.headers.authorization) ?? url.searchParams.get('session') ?? '';
  const login = st.sessions.get(session);
  if (login === undefined) return refuse(401, 'Unauthorized');
  st.wss.handleUpgrade(req, socket, head, (ws) => {
    const client: StreamClient = {
      ws,
      login,
      symbols: new Set(),
      beat: setInterval(
        () => sendTo(st, client, { type: 'heartbeat', time_msc: Date.now() }),
        st.heartbeatMs,
      ),
    };
    st.clients.add(client);
    const acc = st.accounts.get(login) as AccountState;
    sendTo(st, client, {
      type: 'hello',
      login,
      server: acc.spec.server,
      server_time_msc: Date.now(),
      heartbeat_ms: st.heartbeatMs,
    });
    ws.on('message', (raw) => onClientMessage(st, client, raw.toString()));
    ws.on('close', () => {
      clearInterval(client.beat);
      st.clients.delete(client);
    });
  });
}

function onClientMessage(st: BridgeState, client: StreamClient, raw: string): void {
  let msg: ClientMessage;
  try {
    msg = JSON.parse(raw) as ClientMessage;
  } catch {
    return sendTo(st, client, { type: 'error', error: { code: 'BAD_REQUEST', message: 'Not JSON' } });
  }
  if (msg.op === 'ping') return sendTo(st, client, { type: 'pong', id: msg.id });
  if (msg.op === 'subscribe' || msg.op === 'unsubscribe') {
    for (const name of msg.symbols ?? []) {
      const s = st.symbols.get(name);
      if (!s) {
        sendTo(st, client, {
          type: 'error',
          error: { code: 'NOT_FOUND', message: `Unknown symbol ${name}` },
        });
        continue;
      }
      if (msg.op === 'subscribe') {
        client.symbols.add(name);
        sendTo(st, client, { type: 'tick', tick: tickOf(s) });
      } else client.symbols.delete(name);
    }
    return;
  }
  sendTo(st, client, { type: 'error', error: { code: 'BAD_REQUEST', message: 'Unknown op' } });
}

export function sendTo(st: BridgeState, c: StreamClient, msg: ServerMessage): void {
  if (!st.muted && c.ws.readyState === c.ws.OPEN) c.ws.send(JSON.stringify(msg));
}

export function broadcast(st: BridgeState, acc: AccountState, msg: ServerMessage): void {
  for (const c of st.clients) if (c.login === acc.spec.login) sendTo(st, c, msg);
}

export function broadcastAccount(st: BridgeState, acc: AccountState): void {
  broadcast(st, acc, { type: 'account', account: accountOf(st, acc) });
}

/**
 * Down: every open connection is cut and new ones are refused, as when the bridge process or its
 * machine is gone; with `loseSessions` it comes back as a fresh process that forgot all sessions.
 */
export function setDown(st: BridgeState, down: boolean, loseSessions: boolean): void {
  st.down = down;
  if (down) {
    dropConnections(st);
    if (loseSessions) st.sessions.clear();
  }
}

/** Cuts every stream and every HTTP connection at once, as a bridge process that dies. */
export function dropConnections(st: BridgeState): void {
  for (const c of st.clients) {
    clearInterval(c.beat);
    c.ws.terminate();
  }
  st.clients.clear();
  for (const s of st.sockets) s.destroy();
  st.sockets.clear();
}
