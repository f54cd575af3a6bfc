import { describe, expect, it } from 'vitest';
import type { Quote } from '../brokers/types';
import { createPriceHub, type PriceSink } from './price-hub';

/** A socket stand-in whose write buffer the test controls, like a client on a slow link. */
function fakeSocket() {
  const sent: string[] = [];
  const callbacks: Array<() => void> = [];
  const s = {
    readyState: 1,
    bufferedAmount: 0,
    sent,
    send(data: string, cb?: () => void) {
      sent.push(data);
      if (cb) callbacks.push(cb);
    },
    /** The network takes everything queued: the buffer empties and write callbacks fire. */
    drain() {
      s.bufferedAmount = 0;
      for (const cb of callbacks.splice(0)) cb();
    },
  };
  return s satisfies PriceSink & Record<string, unknown>;
}

function upstreamFeed() {
  let listener: ((q: Quote) => void) | undefined;
  let starts = 0;
  let stops = 0;
  return {
    upstream: (onQuote: (q: Quote) => void) => {
      starts += 1;
      listener = onQuote;
      return () => {
        stops += 1;
        listener = undefined;
      };
    },
    tick: (bid: number) =>
      listener?.({ symbol: 'EURUSD', bid, ask: bid + 0.0001, time: Date.UTC(2026, 0, 7, 10) }),
    counts: () => ({ starts, stops }),
  };
}

describe('price hub', () => {
  it('serves every watcher of an account+symbol from one upstream, dropped with the last watcher', () => {
    const hub = createPriceHub();
    const feed = upstreamFeed();
    const a = fakeSocket();
    const b = fakeSocket();
    const unA = hub.watch('acc', 'EURUSD', feed.upstream, a);
    const unB = hub.watch('acc', 'EURUSD', feed.upstream, b);
    expect(feed.counts()).toEqual({ starts: 1, stops: 0 });
    feed.tick(1.1);
    expect(JSON.parse(a.sent[0]!)).toEqual({ bid: 1.1, ask: 1.1001, time: '2026-01-07T10:00:00.000Z' });
    expect(b.sent).toEqual(a.sent);
    unA();
    expect(feed.counts().stops).toBe(0);
    unB();
    expect(feed.counts()).toEqual({ starts: 1, stops: 1 });
    expect(hub.stats()).toEqual({ topics: 0, watchers: 0, dropped: 0 });
  });

  it('sends the latest price to a watcher joining a running topic', () => {
    const hub = createPriceHub();
    const feed = upstreamFeed();
    hub.watch('acc', 'EURUSD', feed.upstream, fakeSocket());
    feed.tick(1.2);
    const late = fakeSocket();
    hub.watch('acc', 'EURUSD', feed.upstream, late);
    expect(late.sent.map((m) => JSON.parse(m).bid)).toEqual([1.2]);
  });

  it('never holds back others for a slow client, which gets only the newest tick once it drains', () => {
    const hub = createPriceHub({ maxBufferedBytes: 1000 });
    const feed = upstreamFeed();
    const fast = fakeSocket();
    const slow = fakeSocket();
    hub.watch('acc', 'EURUSD', feed.upstream, fast);
    hub.watch('acc', 'EURUSD', feed.upstream, slow);
    feed.tick(1.0);
    slow.bufferedAmount = 50_000; // its link stalls
    for (let i = 1; i <= 20; i++) feed.tick(1 + i / 10_000);
    expect(fast.sent).toHaveLength(21);
    expect(slow.sent).toHaveLength(1);
    slow.drain();
    expect(slow.sent).toHaveLength(2);
    expect(JSON.parse(slow.sent[1]!).bid).toBe(1.002);
    expect(hub.stats().dropped).toBe(19);
    feed.tick(1.5);
    expect(JSON.parse(slow.sent.at(-1)!).bid).toBe(1.5);
  });

  it('keeps topics of different accounts apart', () => {
    const hub = createPriceHub();
    const f1 = upstreamFeed();
    const f2 = upstreamFeed();
    const s1 = fakeSocket();
    const s2 = fakeSocket();
    hub.watch('acc1', 'EURUSD', f1.upstream, s1);
    hub.watch('acc2', 'EURUSD', f2.upstream, s2);
    f1.tick(1.1);
    expect(s1.sent).toHaveLength(1);
    expect(s2.sent).toHaveLength(0);
    expect(hub.stats()).toMatchObject({ topics: 2, watchers: 2 });
  });
});
