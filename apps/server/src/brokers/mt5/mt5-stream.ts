import WebSocket from 'ws';
import { BrokerError, type Quote } from '../types';
import { toAccountInfo, toDeal, toOrder, toPosition } from './mt5-mapping';
import { emit, type Mt5State } from './mt5-state';
import {
  BRIDGE_TOKEN_HEADER,
  HEARTBEAT_INTERVAL_MS,
  type ClientMessage,
  type ServerMessage,
  type WireDeal,
} from './protocol';

/** The bridge's WebSocket stream: ticks and trade events in, subscriptions out. */

export function openStream(st: Mt5State): Promise<void> {
  closeStream(st);
  const wsUrl = `${st.base.replace(/^http/, 'ws')}/stream`;
  const headers: Record<string, string> = { authorization: `Bearer ${st.session}` };
  if (st.opts.bridgeToken) headers[BRIDGE_TOKEN_HEADER] = st.opts.bridgeToken;
  const ws = new WebSocket(wsUrl, { headers, handshakeTimeout: st.timeoutMs });
  st.ws = ws;
  return new Promise<void>((resolve, reject) => {
    let hello = false;
    let heartbeatMs = HEARTBEAT_INTERVAL_MS;
    let lastSeen = Date.now();
    const fail = (message: string) => {
      if (hello) return;
      hello = true;
      clearTimeout(helloTimer);
      if (st.ws === ws) st.ws = null;
      ws.terminate();
      reject(new BrokerError(message, 'unavailable'));
    };
    const helloTimer = setTimeout(() => fail('The MT5 bridge stream did not answer in time.'), st.timeoutMs);
    ws.on('unexpected-response', (_req, res) =>
      fail(`The MT5 bridge refused the stream (HTTP ${res.statusCode}).`),
    );
    ws.on('error', (err) =>
      fail(`The MT5 bridge stream is unreachable (${(err as NodeJS.ErrnoException).code ?? err.message}).`),
    );
    ws.on('message', (raw) => {
      lastSeen = Date.now();
      let msg: ServerMessage;
      try {
        msg = JSON.parse(raw.toString()) as ServerMessage;
      } catch {
        return;
      }
      if (msg.type === 'hello' && !hello) {
        hello = true;
        clearTimeout(helloTimer);
        heartbeatMs = msg.heartbeat_ms > 0 ? msg.heartbeat_ms : HEARTBEAT_INTERVAL_MS;
        // Three missed heartbeats mean the bridge is gone even if no TCP error says so.
        st.watchdog = setInterval(() => {
          if (Date.now() - lastSeen > 3 * heartbeatMs) ws.terminate();
        }, heartbeatMs);
        const symbols = [...st.quoteListeners.keys()];
        if (symbols.length > 0) send(st, { op: 'subscribe', symbols });
        resolve();
        return;
      }
      onMessage(st, msg);
    });
    ws.on('close', () => {
      fail('The MT5 bridge closed the stream.');
      if (st.ws !== ws) return;
      st.ws = null;
      if (st.watchdog) clearInterval(st.watchdog);
      st.watchdog = null;
      st.onStreamLost();
    });
  });
}

export function closeStream(st: Mt5State): void {
  if (st.watchdog) clearInterval(st.watchdog);
  st.watchdog = null;
  const ws = st.ws;
  st.ws = null;
  if (ws) ws.terminate();
}

export function send(st: Mt5State, msg: ClientMessage): void {
  if (st.ws?.readyState === WebSocket.OPEN) st.ws.send(JSON.stringify(msg));
}

function onMessage(st: Mt5State, msg: ServerMessage): void {
  switch (msg.type) {
    case 'tick': {
      const q: Quote = {
        symbol: msg.tick.symbol,
        bid: msg.tick.bid,
        ask: msg.tick.ask,
        time: msg.tick.time_msc,
      };
      const set = st.quoteListeners.get(q.symbol);
      if (!set) return;
      st.lastQuotes.set(q.symbol, q);
      for (const cb of set) cb(q);
      emit(st, { type: 'quote', quote: q });
      return;
    }
    case 'deal':
      if (noteDeal(st, msg.deal)) {
        const known = st.knownPositions.get(String(msg.deal.position_id));
        const partial =
          msg.deal.entry === 'OUT' && known !== undefined && msg.deal.volume + 1e-9 < known.volume;
        emit(st, { type: 'execution', deal: toDeal(msg.deal, partial) });
      }
      return;
    case 'position': {
      const p = toPosition(msg.position);
      if (msg.status === 'CLOSED') st.knownPositions.delete(p.position_id);
      else st.knownPositions.set(p.position_id, p);
      emit(st, { type: 'position', position: p, status: msg.status });
      return;
    }
    case 'order': {
      const o = toOrder(msg.order);
      if (msg.status === 'PLACED') st.knownOrders.set(o.order_id, o);
      else st.knownOrders.delete(o.order_id);
      emit(st, { type: 'order', order: o, status: msg.status });
      return;
    }
    case 'account':
      emit(st, { type: 'account', info: toAccountInfo(msg.account) });
      return;
    case 'error':
      st.log.warn(
        { login: st.who.login, code: msg.error.code },
        `mt5 bridge stream error: ${msg.error.message}`,
      );
      return;
    default:
      return;
  }
}

/** Remembers a deal; false when it was already seen (the stream and a reconcile can both report it). */
export function noteDeal(st: Mt5State, d: WireDeal): boolean {
  const id = String(d.ticket);
  if (st.seenDeals.has(id)) return false;
  st.seenDeals.add(id);
  if (st.seenDeals.size > 10_000) st.seenDeals.delete(st.seenDeals.values().next().value as string);
  st.lastDealMs = Math.max(st.lastDealMs, d.time_msc);
  return true;
}
