import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, describeEachDb, type Harness } from '../test/harness';
import { createAccount, demoAccountRow } from '../test/accounts';
import { waitFor } from '../test/wait-for';
import { knownErrorToHttp } from '../lib/error-status';
import { brokerFactories, createBrokerRegistry, type BrokerRegistry } from './registry';
import {
  allCapabilities,
  BrokerError,
  type BrokerAdapter,
  type BrokerEvent,
  type ConnectionState,
  type Reconciliation,
} from './types';

/**
 * A remote broker seen from our side: it can be down, come back, or drop the connection.
 * It stands in for the network peer only; the registry under test is the real one.
 */
function remoteBroker() {
  const listeners = new Set<(e: BrokerEvent) => void>();
  const broker = {
    down: true,
    connects: 0,
    state: 'disconnected' as ConnectionState,
    positions: [] as Reconciliation['positions'],
    badPassword: false,
    drop() {
      broker.state = 'disconnected';
      for (const l of listeners)
        l({ type: 'connection', state: 'disconnected', detail: 'socket closed by peer' });
    },
    /** The adapter loses the link and restores it on its own, as the MT5 and cTrader adapters do. */
    selfReconnect() {
      broker.state = 'reconnecting';
      for (const l of listeners) l({ type: 'connection', state: 'reconnecting' });
      broker.state = 'connected';
      for (const l of listeners) l({ type: 'connection', state: 'connected' });
    },
  };
  const refuse = async (): Promise<never> => {
    throw new BrokerError('not used in this test', 'rejected');
  };
  const adapter: BrokerAdapter = {
    platform: 'MT5',
    capabilities: allCapabilities(),
    async connect() {
      broker.connects += 1;
      if (broker.badPassword) {
        broker.state = 'error';
        throw new BrokerError('MT5 login refused: invalid account number or password', 'auth');
      }
      if (broker.down) {
        broker.state = 'error';
        throw new BrokerError('MT5 bridge unreachable: connection refused', 'unavailable');
      }
      broker.state = 'connected';
    },
    async disconnect() {
      broker.state = 'disconnected';
    },
    connectionState: () => broker.state,
    accountInfo: async () => ({
      balance: 500,
      equity: 500,
      margin: 0,
      free_margin: 500,
      currency: 'USD',
      leverage: 30,
    }),
    symbols: async () => [],
    symbolInfo: refuse,
    quote: refuse,
    subscribeQuotes: () => () => undefined,
    candles: async () => [],
    placeOrder: refuse,
    amendPosition: refuse,
    closePosition: refuse,
    cancelOrder: refuse,
    reconcile: async () => ({ positions: broker.positions, orders: [] }),
    deals: async () => [],
    onEvent(l) {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
  };
  return { broker, adapter };
}

describeEachDb('broker registry', (target) => {
  let h: Harness;
  let registry: BrokerRegistry;
  const remote = remoteBroker();
  beforeAll(async () => {
    h = await createHarness(target);
    registry = createBrokerRegistry(
      h.ctx,
      { ...brokerFactories, MT5: () => remote.adapter },
      { backoffMs: [100, 200] },
    );
  });
  afterAll(async () => {
    await registry.closeAll();
    await h.close();
  });

  it('answers 502 for a broker that is down, keeps other accounts working, and recovers with backoff', async () => {
    const alice = await h.user('alice');
    const mt5 = await createAccount(h, alice.token, {
      name: 'Live',
      platform: 'MT5',
      account_number: '1',
      password: 'pw',
      broker_server: 'Srv',
    });
    const sim = await demoAccountRow(h, alice.id);
    const reconciled: string[] = [];
    registry.onReconciled((id) => reconciled.push(id));

    // The registry throws broker errors only; the HTTP error handler maps them once.
    const err = await registry.use(mt5, (a) => a.accountInfo()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrokerError);
    expect(knownErrorToHttp(err)).toMatchObject({
      statusCode: 502,
      detail: 'MT5 bridge unreachable: connection refused',
    });

    // The SIM account of the same user is not affected.
    expect((await registry.use(sim, (a) => a.accountInfo())).balance).toBe(10_000);

    // Within the backoff window a request fails fast instead of hammering the broker.
    const attempts = remote.broker.connects;
    expect(knownErrorToHttp(await registry.connected(mt5).catch((e: unknown) => e))).toMatchObject({
      statusCode: 502,
    });
    expect(remote.broker.connects).toBe(attempts);

    remote.broker.down = false;
    await waitFor(() => registry.state(mt5.id) === 'connected', 'the background reconnect', 5000);
    expect(reconciled).toEqual([mt5.id]);
    expect((await registry.use(mt5, (a) => a.accountInfo())).balance).toBe(500);

    // A dropped connection is re-established and reconciled without any request.
    remote.broker.drop();
    await waitFor(() => reconciled.length === 2, 'the reconnect after a drop', 5000);
    expect(registry.state(mt5.id)).toBe('connected');

    // An adapter that restores its own link is reconciled too, so nothing that happened meanwhile is missed.
    remote.broker.selfReconnect();
    await waitFor(
      () => reconciled.length === 3,
      'the reconcile after the adapter reconnected by itself',
      5000,
    );
  });

  it('does not retry refused credentials in the background', async () => {
    const carol = await h.user('carol');
    const mt5 = await createAccount(h, carol.token, {
      name: 'Wrong pw',
      platform: 'MT5',
      account_number: '2',
      password: 'bad',
      broker_server: 'Srv',
    });
    await registry.evict(mt5.id);
    remote.broker.badPassword = true;
    remote.broker.state = 'disconnected';
    const before = remote.broker.connects;
    expect(knownErrorToHttp(await registry.connected(mt5).catch((e: unknown) => e))).toMatchObject({
      statusCode: 502,
    });
    expect(remote.broker.connects).toBe(before + 1);
    // Several backoff periods pass without another login attempt with the same password.
    await new Promise((r) => setTimeout(r, 600));
    expect(remote.broker.connects).toBe(before + 1);
    remote.broker.badPassword = false;
  });

  it('maps business refusals to 422 and unknown things to 404', async () => {
    const bob = await h.user('bob');
    const sim = await demoAccountRow(h, bob.id);
    const status = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: unknown) => knownErrorToHttp(e),
      );
    expect(await status(registry.use(sim, (a) => a.closePosition('no-such-position')))).toMatchObject({
      statusCode: 404,
    });
    expect(
      await status(
        registry.use(sim, (a) =>
          a.placeOrder({ client_order_id: 'x', symbol: 'EURUSD', side: 'BUY', kind: 'LIMIT', volume: 1 }),
        ),
      ),
    ).toMatchObject({ statusCode: 422, detail: 'A limit order needs a positive limit price.' });
  });
});
