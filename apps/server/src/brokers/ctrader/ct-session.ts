import { onFrame } from './ct-events';
import { reconcile } from './ct-orders';
import { subscribeSpots } from './ct-quotes';
import { loadSymbols } from './ct-symbols';
import { TOKEN_CHECK_MS, emit, setState, type CtState } from './ct-state';
import { OpenApiConnection, toBrokerError } from './openapi-client';
import { PT } from './protocol';

/**
 * Connection and session: authorising the application and the account, renewing the token, and
 * re-establishing a lost connection with exponential backoff, re-subscribed and reconciled.
 */

export async function connect(st: CtState): Promise<void> {
  st.stopped = false;
  if (st.state === 'connected' && st.conn?.isOpen) return;
  if (!st.connecting) {
    if (st.retryTimer) clearTimeout(st.retryTimer);
    st.retryTimer = undefined;
    st.connecting = establish(st).finally(() => {
      st.connecting = undefined;
    });
  }
  return st.connecting;
}

export async function disconnect(st: CtState): Promise<void> {
  st.stopped = true;
  if (st.tokenTimer) clearInterval(st.tokenTimer);
  st.tokenTimer = undefined;
  if (st.retryTimer) clearTimeout(st.retryTimer);
  st.retryTimer = undefined;
  const c = st.conn;
  st.conn = undefined;
  c?.close();
  setState(st, 'disconnected');
}

async function establish(st: CtState): Promise<void> {
  const reconnecting = st.everConnected;
  setState(st, reconnecting ? 'reconnecting' : 'connecting');
  const conn = new OpenApiConnection(st.opts.url, {
    heartbeatMs: st.opts.heartbeatMs,
    requestTimeoutMs: st.opts.requestTimeoutMs,
  });
  try {
    await conn.open();
    await conn.request(
      PT.APPLICATION_AUTH_REQ,
      { clientId: st.opts.clientId, clientSecret: st.opts.clientSecret },
      PT.APPLICATION_AUTH_RES,
    );
    const accessToken = await st.opts.accessToken();
    await conn.request(
      PT.ACCOUNT_AUTH_REQ,
      { ctidTraderAccountId: st.opts.ctidTraderAccountId, accessToken },
      PT.ACCOUNT_AUTH_RES,
    );
    st.conn = conn;
    st.spotIds = new Set();
    st.sessionToken = accessToken;
    conn.onFrame((f) => onFrame(st, f));
    conn.onClose((reason) => onConnectionLost(st, conn, reason));
    await loadSymbols(st);
  } catch (e) {
    conn.close();
    if (st.conn === conn) st.conn = undefined;
    const err = toBrokerError(e);
    st.lastError = err.message;
    setState(st, st.everConnected ? 'reconnecting' : 'error', err.message);
    // Credentials refused: retrying with the same ones would only hammer the server.
    if (err.kind !== 'auth') scheduleReconnect(st);
    throw err;
  }
  if (st.stopped) {
    // disconnect() was called while we were connecting.
    conn.close();
    st.conn = undefined;
    setState(st, 'disconnected');
    return;
  }
  st.attempt = 0;
  st.everConnected = true;
  watchToken(st);
  st.lastError = undefined;
  setState(st, 'connected');
  // Re-subscribe the spots that were watched before the link dropped.
  const ids = [...st.quoteSubs.keys()]
    .map((name) => st.symbolsByName.get(name)?.light.symbolId)
    .filter((id): id is number => id !== undefined);
  if (ids.length)
    await subscribeSpots(st, ids).catch((e) => st.opts.log?.warn({ err: e }, 'cTrader re-subscribe failed'));
  if (reconnecting)
    await reconcileAfterReconnect(st).catch((e) => st.opts.log?.warn({ err: e }, 'cTrader reconcile failed'));
}

/**
 * Asks for the access token now and then: when it was refreshed (it was close to expiry), the
 * session still runs on the old one, so it is re-established with the new token.
 */
function watchToken(st: CtState): void {
  if (st.tokenTimer) return;
  st.tokenTimer = setInterval(() => {
    if (st.state !== 'connected' || !st.conn) return;
    const conn = st.conn;
    st.opts
      .accessToken()
      .then((t) => {
        if (t !== st.sessionToken && st.conn === conn) {
          st.opts.log?.info?.(
            { account: st.opts.ctidTraderAccountId },
            'cTrader token renewed: re-authorising',
          );
          conn.close();
        }
      })
      .catch((err) => st.opts.log?.warn({ err }, 'cTrader token renewal failed'));
  }, st.opts.tokenCheckMs ?? TOKEN_CHECK_MS);
  st.tokenTimer.unref();
}

function onConnectionLost(st: CtState, conn: OpenApiConnection, reason: string): void {
  if (st.conn !== conn) return;
  st.conn = undefined;
  if (st.stopped) return;
  st.lastError = reason;
  setState(st, 'reconnecting', reason);
  scheduleReconnect(st);
}

function scheduleReconnect(st: CtState): void {
  if (st.stopped || st.retryTimer) return;
  const initial = st.opts.reconnect?.initialMs ?? 1000;
  const max = st.opts.reconnect?.maxMs ?? 60_000;
  const delay = Math.min(max, initial * 2 ** st.attempt) * (0.8 + Math.random() * 0.4);
  st.attempt++;
  st.retryTimer = setTimeout(() => {
    st.retryTimer = undefined;
    if (st.stopped) return;
    connect(st).catch(() => undefined);
  }, delay);
  st.retryTimer.unref();
}

async function reconcileAfterReconnect(st: CtState): Promise<void> {
  const before = st.lastReconciliation;
  const now = await reconcile(st);
  if (!before) return;
  const old = new Map(before.positions.map((p) => [p.position_id, p]));
  const cur = new Set(now.positions.map((p) => p.position_id));
  for (const p of now.positions) {
    const o = old.get(p.position_id);
    if (!o) emit(st, { type: 'position', position: p, status: 'OPENED' });
    else if (o.volume !== p.volume || o.stop_loss !== p.stop_loss || o.take_profit !== p.take_profit)
      emit(st, { type: 'position', position: p, status: 'UPDATED' });
  }
  for (const o of before.positions)
    if (!cur.has(o.position_id)) emit(st, { type: 'position', position: o, status: 'CLOSED' });
}
