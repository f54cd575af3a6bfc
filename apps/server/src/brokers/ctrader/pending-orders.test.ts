import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerEvent } from '../types';
import { CTraderAdapter } from './adapter';
import { FakeOpenApiServer } from '../../testing/ctrader/fake-openapi-server';
import { PT } from './protocol';
import { waitFor } from '../../test/wait-for';

const CTID = 4_200_077;
const TOKEN = 'pending-token';

/**
 * The dashboard's pending orders on cTrader: ProtoOAReconcileReq lists them, ProtoOACancelOrderReq
 * cancels one, against the fake Open API server.
 */
describe('cTrader pending orders', () => {
  let fake: FakeOpenApiServer;
  let a: CTraderAdapter;

  beforeAll(async () => {
    fake = await new FakeOpenApiServer({
      clientId: 'app-id',
      clientSecret: 'app-secret',
      accounts: [
        {
          ctidTraderAccountId: CTID,
          traderLogin: 7_009_999,
          isLive: false,
          brokerName: 'Fake Markets',
          depositAsset: 'USD',
          balance: 1_000_000,
          leverage: 100,
        },
      ],
      tokenAccounts: (t) => (t === TOKEN ? [CTID] : null),
      heartbeatMs: 200,
    }).start();
    a = new CTraderAdapter({
      url: fake.url,
      clientId: 'app-id',
      clientSecret: 'app-secret',
      ctidTraderAccountId: CTID,
      accessToken: async () => TOKEN,
      reconnect: { initialMs: 50, maxMs: 400 },
      requestTimeoutMs: 3000,
    });
    await a.connect();
  });
  afterAll(async () => {
    await a.disconnect();
    await fake.stop();
  });

  it('lists a SELL limit placed with distances at the levels they stand for, and cancels it', async () => {
    fake.setPrice('EURUSD', 1.085, 1.0851);
    const events: BrokerEvent[] = [];
    const stop = a.onEvent((e) => events.push(e));
    const placed = await a.placeOrder({
      client_order_id: 'sell-lim-1',
      symbol: 'EURUSD',
      side: 'SELL',
      kind: 'LIMIT',
      volume: 0.2,
      limit_price: 1.09,
      stop_loss: { distance: 0.0025 },
      take_profit: { distance: 0.005 },
    });
    const reconciles = () => fake.received.filter((f) => f.payloadType === PT.RECONCILE_REQ).length;
    const before = reconciles();
    const { orders } = await a.reconcile();
    expect(reconciles()).toBe(before + 1);
    expect(orders).toEqual([
      expect.objectContaining({
        order_id: placed.order_id,
        symbol: 'EURUSD',
        side: 'SELL',
        kind: 'LIMIT',
        volume: 0.2,
        limit_price: 1.09,
        // A SELL's stop is above its limit, its target below.
        stop_loss: 1.0925,
        take_profit: 1.085,
        client_order_id: 'sell-lim-1',
      }),
    ]);
    expect(Date.parse(orders[0]!.created_at)).not.toBeNaN();

    await a.cancelOrder(placed.order_id);
    const cancel = fake.received.filter((f) => f.payloadType === PT.CANCEL_ORDER_REQ).at(-1);
    expect(cancel?.payload).toMatchObject({ ctidTraderAccountId: CTID, orderId: Number(placed.order_id) });
    await waitFor(
      () =>
        events.some(
          (e) => e.type === 'order' && e.status === 'CANCELLED' && e.order.order_id === placed.order_id,
        ),
      'the cancel event',
      5000,
    );
    expect((await a.reconcile()).orders).toEqual([]);
    await expect(a.cancelOrder(placed.order_id)).rejects.toMatchObject({ kind: 'not_found' });
    stop();
  });
});
