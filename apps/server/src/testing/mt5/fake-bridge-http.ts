/**
 * The fake bridge's HTTP routes (docs/mt5-bridge.md, "Endpoints"): the bridge token, login and
 * sessions, then each route handed to the market or the trade server; failures become the protocol's
 * error body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import {
  BRIDGE_TOKEN_HEADER,
  MT5_TIMEFRAMES,
  type LoginResponse,
  type Mt5Timeframe,
  type PlaceOrderBody,
} from '../../brokers/mt5/protocol';
import { accountOf, candles, tickOf, withProfit } from './fake-bridge-market';
import { BridgeFailure, mustSymbol, type AccountState, type BridgeState } from './fake-bridge-state';
import { bearer, setDown } from './fake-bridge-stream';
import { cancelOrder, closePosition, modifyPosition, placeOrder } from './fake-bridge-trading';

export async function onRequest(st: BridgeState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (st.hanging) {
    st.hung.add(res);
    return;
  }
  try {
    const url = new URL(req.url ?? '/', 'http://bridge');
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] !== 'v1') throw new BridgeFailure(404, 'NOT_FOUND', 'Unknown API version');
    const method = req.method ?? 'GET';
    const route = `${method} /${parts.slice(1).join('/')}`;
    if (route === 'GET /health')
      return reply(res, 200, { status: 'ok', version: 'v1', terminal_connected: true });
    checkBridgeToken(st, req);
    const body = method === 'POST' || method === 'PUT' ? await readJson(req) : undefined;
    if (route === 'POST /login') return reply(res, 200, login(st, body as Record<string, unknown>));
    const acc = accountForSession(st, req.headers.authorization);
    if (route === 'POST /logout') {
      st.sessions.delete(bearer(req.headers.authorization) ?? '');
      return reply(res, 200, { ok: true });
    }
    const result = answer(st, acc, method, url, body);
    if (st.downAfter === route) {
      // Done at the terminal, but the answer never leaves: the caller only sees its connection cut.
      st.downAfter = null;
      return setDown(st, true, true);
    }
    return reply(res, 200, result);
  } catch (e) {
    if (e instanceof BridgeFailure) {
      return reply(res, e.status, {
        error: { code: e.code, message: e.message, ...(e.retcode ? { retcode: e.retcode } : {}) },
      });
    }
    return reply(res, 500, { error: { code: 'INTERNAL', message: String((e as Error)?.message ?? e) } });
  }
}

/** The answer of a signed-in route; an unknown route is NOT_FOUND. */
function answer(st: BridgeState, acc: AccountState, method: string, url: URL, body: unknown): unknown {
  const parts = url.pathname.split('/').filter(Boolean);
  const [, a, b, c] = parts;
  const route = `${method} /${parts.slice(1).join('/')}`;
  if (route === 'GET /account') return accountOf(st, acc);
  if (route === 'GET /symbols') return { symbols: [...st.symbols.values()].map((s) => s.spec) };
  if (method === 'GET' && a === 'symbols' && b && !c) return mustSymbol(st, decodeURIComponent(b), 404).spec;
  if (method === 'GET' && a === 'quotes' && b && !c)
    return tickOf(mustSymbol(st, decodeURIComponent(b), 404));
  if (route === 'POST /orders') return placeOrder(st, acc, body as PlaceOrderBody);
  if (route === 'GET /orders') return { orders: [...acc.orders.values()] };
  if (route === 'GET /positions')
    return { positions: [...acc.positions.values()].map((p) => withProfit(st, p)) };
  if (method === 'DELETE' && a === 'orders' && b && !c) return cancelOrder(st, acc, Number(b));
  if (method === 'PUT' && a === 'positions' && b && !c)
    return modifyPosition(st, acc, Number(b), body as object);
  if (method === 'POST' && a === 'positions' && b && c === 'close')
    return closePosition(st, acc, Number(b), body as object);
  if (route === 'GET /deals') {
    const { from, to } = range(url);
    return { deals: acc.deals.filter((d) => d.time_msc >= from && d.time_msc <= to) };
  }
  if (route === 'GET /candles') return candlesOf(st, url);
  throw new BridgeFailure(404, 'NOT_FOUND', `No route ${route}`);
}

function candlesOf(st: BridgeState, url: URL) {
  const { from, to } = range(url);
  const tf = url.searchParams.get('timeframe') as Mt5Timeframe;
  if (!MT5_TIMEFRAMES.includes(tf)) throw new BridgeFailure(400, 'BAD_REQUEST', `Unknown timeframe ${tf}`);
  const symbol = mustSymbol(st, url.searchParams.get('symbol') ?? '', 404);
  return { candles: candles(symbol, tf, from, to) };
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function checkBridgeToken(st: BridgeState, req: IncomingMessage): void {
  if (st.opts.bridgeToken && req.headers[BRIDGE_TOKEN_HEADER] !== st.opts.bridgeToken) {
    throw new BridgeFailure(401, 'UNAUTHORIZED', 'Bad bridge token');
  }
}

function login(st: BridgeState, body: Record<string, unknown> | undefined): LoginResponse {
  st.loginAttempts += 1;
  const login = Number(body?.login);
  const acc = st.accounts.get(login);
  if (!acc || acc.spec.password !== body?.password || acc.spec.server !== body?.server) {
    throw new BridgeFailure(401, 'INVALID_ACCOUNT', 'Invalid account or password (authorization failed)');
  }
  const session = randomBytes(18).toString('base64url');
  st.sessions.set(session, login);
  return {
    session,
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    account: accountOf(st, acc),
  };
}

function accountForSession(st: BridgeState, authorization: string | undefined): AccountState {
  const login = st.sessions.get(bearer(authorization) ?? '');
  const acc = login === undefined ? undefined : st.accounts.get(login);
  if (!acc) throw new BridgeFailure(401, 'SESSION_EXPIRED', 'Session is unknown or expired; log in again');
  return acc;
}

function range(url: URL): { from: number; to: number } {
  const from = Number(url.searchParams.get('from'));
  const to = Number(url.searchParams.get('to'));
  if (
    !Number.isFinite(from) ||
    !Number.isFinite(to) ||
    url.searchParams.get('from') === null ||
    url.searchParams.get('to') === null
  ) {
    throw new BridgeFailure(400, 'BAD_REQUEST', 'from and to (epoch milliseconds) are required');
  }
  return { from, to };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new BridgeFailure(400, 'BAD_REQUEST', 'Body is not JSON');
  }
}
