import { BrokerError } from '../types';
import { mapDeals, fetchDeals } from './mt5-history';
import { http, login } from './mt5-http';
import { asBrokerError, toAccountInfo } from './mt5-mapping';
import { reconcile } from './mt5-orders';
import { emit, setState, type Mt5State } from './mt5-state';
import { closeStream, noteDeal, openStream } from './mt5-stream';
import type { WireAccount } from './protocol';

/**
 * Connection and session: the first connect, disconnect, and reconnecting with backoff after the
 * stream is lost, reconciling what changed while away and announcing it as ordinary events.
 */

export function connect(st: Mt5State): Promise<void> {
  if (st.state === 'connected' && !st.stopped) return Promise.resolve();
  // Someone needs the account now: try at once instead of waiting for the backoff timer.
  if (st.reconnecting && !st.stopped) return attemptReconnect(st);
  st.connectInFlight ??= firstConnect(st).finally(() => {
    st.connectInFlight = null;
  });
  return st.connectInFlight;
}

async function firstConnect(st: Mt5State): Promise<void> {
  st.stopped = false;
  st.reconnecting = false;
  setState(st, 'connecting');
  try {
    await establish(st, false);
    if (st.stopped) {
      // disconnect() was called while we were logging in: leave nothing open behind.
      closeStream(st);
      return;
    }
    setState(st, 'connected');
  } catch (e) {
    closeStream(st);
    st.stopped = true;
    const err = asBrokerError(e);
    setState(st, err.kind === 'auth' ? 'error' : 'disconnected', err.message);
    throw err;
  }
}

export async function disconnect(st: Mt5State): Promise<void> {
  st.stopped = true;
  st.reconnecting = false;
  if (st.reconnectTimer) clearTimeout(st.reconnectTimer);
  st.reconnectTimer = null;
  closeStream(st);
  const session = st.session;
  st.session = null;
  if (session) {
    // Logging out is a courtesy to the bridge; a bridge that is gone has nothing to log out of.
    await http(st, 'POST', '/logout', undefined, { session, retryLogin: false, timeoutMs: 2000 }).catch(
      () => undefined,
    );
  }
  if (st.state !== 'disconnected') setState(st, 'disconnected');
}

/** Logs in, opens the stream, and either takes the baseline (first connect) or reconciles (reconnect). */
async function establish(st: Mt5State, reconnect: boolean): Promise<void> {
  st.session = null;
  await login(st);
  await openStream(st);
  if (reconnect) await reconcileAndAnnounce(st);
  else await takeBaseline(st);
}

export function onStreamLost(st: Mt5State): void {
  if (st.stopped || st.reconnecting) return;
  st.reconnecting = true;
  st.reconnectAttempt = 0;
  setState(st, 'reconnecting', 'Lost the connection to the MT5 bridge; reconnecting.');
  st.log.warn({ login: st.who.login, server: st.who.server }, 'mt5 bridge stream lost; reconnecting');
  scheduleReconnect(st);
}

function scheduleReconnect(st: Mt5State, delayMs?: number): void {
  if (st.stopped) return;
  if (st.reconnectTimer) clearTimeout(st.reconnectTimer);
  const exp = Math.min(st.backoff.maxMs, st.backoff.initialMs * 2 ** st.reconnectAttempt);
  const delay = delayMs ?? Math.round(exp * (0.5 + Math.random() / 2));
  st.reconnectTimer = setTimeout(() => void attemptReconnect(st).catch(() => undefined), delay);
  st.reconnectTimer.unref?.();
}

/** One reconnect attempt (shared by the timer and impatient callers); a failure schedules the next. */
function attemptReconnect(st: Mt5State): Promise<void> {
  st.reconnectInFlight ??= runReconnect(st).finally(() => {
    st.reconnectInFlight = null;
  });
  return st.reconnectInFlight;
}

async function runReconnect(st: Mt5State): Promise<void> {
  if (st.reconnectTimer) clearTimeout(st.reconnectTimer);
  st.reconnectTimer = null;
  if (st.stopped) throw new BrokerError('Not connected to MT5.', 'unavailable');
  try {
    await establish(st, true);
    if (st.stopped) {
      closeStream(st);
      return;
    }
    st.reconnecting = false;
    st.reconnectAttempt = 0;
    setState(st, 'connected');
    st.log.info({ login: st.who.login, server: st.who.server }, 'mt5 bridge reconnected and reconciled');
  } catch (e) {
    const err = asBrokerError(e);
    if (st.stopped) throw err;
    if (err.kind === 'auth') {
      // The password was changed at the broker: retrying would only lock the account.
      st.reconnecting = false;
      st.stopped = true;
      closeStream(st);
      setState(st, 'error', err.message);
      st.log.warn({ login: st.who.login, server: st.who.server }, 'mt5 re-login refused; giving up');
      throw err;
    }
    st.reconnectAttempt += 1;
    st.log.debug(
      { login: st.who.login, attempt: st.reconnectAttempt, reason: err.message },
      'mt5 reconnect failed',
    );
    scheduleReconnect(st);
    throw err;
  }
}

/** While reconnecting, a request that got through shows the bridge is back: try at once. */
export function nudgeReconnect(st: Mt5State): void {
  if (
    st.reconnecting &&
    !st.stopped &&
    st.reconnectAttempt > 0 &&
    st.reconnectTimer &&
    !st.reconnectInFlight
  ) {
    st.reconnectAttempt = 0;
    scheduleReconnect(st, 0);
  }
}

async function takeBaseline(st: Mt5State): Promise<void> {
  const r = await reconcile(st);
  st.knownPositions = new Map(r.positions.map((p) => [p.position_id, p]));
  st.knownOrders = new Map(r.orders.map((o) => [o.order_id, o]));
  st.lastDealMs = Math.max(st.lastDealMs, Date.now() - 1000);
}

/** Compares the account with what we last knew and announces every difference as events. */
async function reconcileAndAnnounce(st: Mt5State): Promise<void> {
  const since = st.lastDealMs;
  const [r, dealList, account] = await Promise.all([
    reconcile(st),
    fetchDeals(st, Math.max(0, since - 60_000), Date.now() + 60_000),
    http<WireAccount>(st, 'GET', '/account'),
  ]);
  const openIds = new Set(r.positions.map((p) => p.position_id));
  const fresh = dealList.filter((d) => !st.seenDeals.has(String(d.ticket)));
  const mapped = new Map(mapDeals(st, dealList, openIds).map((d) => [d.deal_id, d]));
  const filledOrders = new Set(fresh.filter((d) => d.entry === 'IN').map((d) => String(d.order)));

  for (const d of fresh.sort((a, b) => a.time_msc - b.time_msc)) {
    noteDeal(st, d);
    const deal = mapped.get(String(d.ticket));
    if (deal) emit(st, { type: 'execution', deal });
  }
  const orderIds = new Set(r.orders.map((o) => o.order_id));
  for (const [id, o] of st.knownOrders) {
    if (!orderIds.has(id))
      emit(st, { type: 'order', order: o, status: filledOrders.has(id) ? 'FILLED' : 'CANCELLED' });
  }
  for (const o of r.orders)
    if (!st.knownOrders.has(o.order_id)) emit(st, { type: 'order', order: o, status: 'PLACED' });
  for (const [id, p] of st.knownPositions) {
    if (!openIds.has(id)) emit(st, { type: 'position', position: p, status: 'CLOSED' });
  }
  for (const p of r.positions) {
    const before = st.knownPositions.get(p.position_id);
    if (!before) emit(st, { type: 'position', position: p, status: 'OPENED' });
    else if (
      before.volume !== p.volume ||
      before.stop_loss !== p.stop_loss ||
      before.take_profit !== p.take_profit
    ) {
      emit(st, { type: 'position', position: p, status: 'UPDATED' });
    }
  }
  st.knownPositions = new Map(r.positions.map((p) => [p.position_id, p]));
  st.knownOrders = new Map(r.orders.map((o) => [o.order_id, o]));
  emit(st, { type: 'account', info: toAccountInfo(account) });
}
