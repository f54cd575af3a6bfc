import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { WS_CLOSE } from '@tradedesk/contract';
import { openPriceFeed, type FeedStatus } from './priceFeed';

/**
 * The browser side of `/ws/prices/{account}/{symbol}` against a real WebSocket server speaking the
 * same protocol (token as the first message, then `{bid, ask, time}`), with Node's own WebSocket.
 */
interface Connection {
  socket: ServerSocket;
  at: number;
  token: Promise<string>;
}

const servers: WebSocketServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function priceServer() {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  servers.push(wss);
  await new Promise((r) => wss.once('listening', r));
  const connections: Connection[] = [];
  const waiters: Array<() => void> = [];
  wss.on('connection', (socket) => {
    const token = new Promise<string>((resolve) =>
      socket.once('message', (d) => resolve((JSON.parse(String(d)) as { token: string }).token)),
    );
    connections.push({ socket, at: Date.now(), token });
    waiters.splice(0).forEach((w) => w());
  });
  const nth = async (n: number, timeoutMs = 3_000): Promise<Connection> => {
    const until = Date.now() + timeoutMs;
    while (connections.length < n) {
      if (Date.now() > until) throw new Error(`no connection #${n}`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 50);
      });
    }
    return connections[n - 1]!;
  };
  const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws/prices/acc/EURUSD`;
  return { url, connections, nth };
}

function recorder() {
  const statuses: Array<[FeedStatus, string | null]> = [];
  const quotes: Array<{ bid: number; ask: number; time: string }> = [];
  return {
    statuses,
    quotes,
    handlers: {
      onStatus: (s: FeedStatus, e: string | null) => statuses.push([s, e]),
      onQuote: (q: { bid: number; ask: number; time: string }) => quotes.push(q),
    },
  };
}

const until = async (cond: () => boolean, timeoutMs = 3_000) => {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

const quote = (bid: number) => JSON.stringify({ bid, ask: bid + 0.0001, time: new Date().toISOString() });

describe('openPriceFeed', () => {
  it('sends the token first, then reports live quotes and ignores malformed messages', async () => {
    const srv = await priceServer();
    const rec = recorder();
    const feed = openPriceFeed({ url: srv.url, token: () => 'tok-1' }, rec.handlers);
    const c = await srv.nth(1);
    expect(await c.token).toBe('tok-1');
    await until(() => rec.statuses.some(([s]) => s === 'live'));
    c.socket.send('not json');
    c.socket.send(JSON.stringify({ bid: 'x' }));
    c.socket.send(quote(1.1));
    c.socket.send(quote(1.2));
    await until(() => rec.quotes.length === 2);
    expect(rec.quotes.map((q) => q.bid)).toEqual([1.1, 1.2]);
    expect(rec.statuses[0]).toEqual(['connecting', null]);
    feed.close();
  });

  it('reconnects after a drop with a doubling delay that a quote resets', async () => {
    const srv = await priceServer();
    const rec = recorder();
    const feed = openPriceFeed(
      { url: srv.url, token: () => 'tok', backoffStartMs: 300, backoffMaxMs: 5_000 },
      rec.handlers,
    );
    // Two drops in a row: the second wait is about twice the first.
    (await srv.nth(1)).socket.close(4502, 'Broker down');
    const c2 = await srv.nth(2);
    c2.socket.terminate();
    const c3 = await srv.nth(3);
    const first = c2.at - srv.connections[0]!.at;
    const second = c3.at - c2.at;
    expect(first).toBeGreaterThanOrEqual(290);
    expect(second).toBeGreaterThanOrEqual(590);
    expect(rec.statuses).toContainEqual(['reconnecting', 'Broker down']);
    expect(rec.statuses).toContainEqual(['reconnecting', 'Connection to the price feed was lost.']);

    // A quote on the third connection starts the delay over: about 300 ms again, where without the
    // reset it would be 1,200 (the bound leaves room for a loaded machine).
    await c3.token;
    c3.socket.send(quote(1.3));
    await until(() => rec.quotes.length === 1);
    c3.socket.terminate();
    const c4 = await srv.nth(4);
    expect(c4.at - c3.at).toBeLessThan(900);
    await c4.token;
    c4.socket.send(quote(1.4));
    await until(() => rec.quotes.length === 2);
    expect(rec.statuses.at(-1)?.[0]).toBe('live');
    feed.close();
  });

  it.each([
    [WS_CLOSE.unauthorized, 'Authentication failed: a valid access token is required.'],
    [WS_CLOSE.notFound, 'Unknown symbol: NOPE.'],
  ])('stops without retrying when the server refuses with %i', async (code, reason) => {
    const srv = await priceServer();
    const rec = recorder();
    openPriceFeed({ url: srv.url, token: () => null, backoffStartMs: 20 }, rec.handlers);
    const c = await srv.nth(1);
    expect(await c.token).toBe('');
    c.socket.close(code, reason);
    await until(() => rec.statuses.some(([s]) => s === 'error'));
    await new Promise((r) => setTimeout(r, 200));
    expect(srv.connections).toHaveLength(1);
    expect(rec.statuses.at(-1)).toEqual(['error', reason]);
  });

  it("says a 4502 close is the broker being down, with the server's reason, and keeps retrying", async () => {
    const srv = await priceServer();
    const downs: Array<[FeedStatus, string | null, boolean | undefined]> = [];
    const feed = openPriceFeed(
      { url: srv.url, token: () => 'tok', backoffStartMs: 20 },
      { onStatus: (s, e, down) => downs.push([s, e, down]), onQuote: () => undefined },
    );
    const reason = 'MT5 is not available: the MT5 bridge did not answer.';
    (await srv.nth(1)).socket.close(WS_CLOSE.brokerDown, reason);
    await until(() => downs.some(([s]) => s === 'reconnecting'));
    expect(downs.find(([s]) => s === 'reconnecting')).toEqual(['reconnecting', reason, true]);
    await srv.nth(2);
    (await srv.nth(2)).socket.terminate();
    await until(() => downs.filter(([s]) => s === 'reconnecting').length === 2);
    // A plain drop is not the broker: no flag.
    expect(downs.filter(([s]) => s === 'reconnecting')[1]![2]).toBe(false);
    feed.close();
  });

  it('close() closes the socket, cancels a pending retry and reports nothing more', async () => {
    const srv = await priceServer();
    const rec = recorder();
    const feed = openPriceFeed({ url: srv.url, token: () => 'tok', backoffStartMs: 100 }, rec.handlers);
    const c = await srv.nth(1);
    await c.token;
    const closed = new Promise<number>((r) => c.socket.once('close', (code) => r(code)));
    feed.close();
    expect(await closed).toBe(1000);

    // A feed waiting to reconnect never opens again once closed.
    const rec2 = recorder();
    const feed2 = openPriceFeed({ url: srv.url, token: () => 'tok', backoffStartMs: 100 }, rec2.handlers);
    const c2 = await srv.nth(2);
    c2.socket.terminate();
    await until(() => rec2.statuses.some(([s]) => s === 'reconnecting'));
    const seen = rec2.statuses.length;
    feed2.close();
    await new Promise((r) => setTimeout(r, 300));
    expect(srv.connections).toHaveLength(2);
    expect(rec2.statuses).toHaveLength(seen);
    expect(rec.statuses.at(-1)?.[0]).toBe('live');
  });
});
