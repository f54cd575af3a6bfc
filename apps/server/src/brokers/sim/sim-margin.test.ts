import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { createAccount } from '../../test/accounts';
import { brokerRegistry } from '../registry';
import { BrokerError, type BrokerAdapter } from '../types';

/** A Wednesday morning in London: FX, gold, the US indices and bitcoin all trade. */
const WEDNESDAY = Date.parse('2026-01-07T10:00:00Z');

/**
 * Margin per instrument class: notional / min(account leverage, the symbol's cap), with caps of
 * 1:500 on FX, 1:20 on gold and indices, 1:2 on BTCUSD (symbols.ts, README.md "Margin").
 */
describeEachDb('sim margin by instrument class', (target) => {
  let h: Harness;
  let n = 0;
  beforeAll(async () => {
    h = await createHarness(target, { simNow: () => WEDNESDAY });
  });
  afterAll(() => h.close());

  /** A fresh user's SIM account with the given leverage and balance (USD), connected. */
  async function account(leverage: number, balance = 10_000): Promise<BrokerAdapter> {
    const { token } = await h.user(`margin${++n}`);
    const row = await createAccount(h, token, {
      name: `1:${leverage}`,
      platform: 'SIM',
      currency: 'USD',
      balance,
      leverage,
    });
    return brokerRegistry(h.ctx).connected(row);
  }

  async function buy(adapter: BrokerAdapter, symbol: string, volume: number): Promise<number> {
    const r = await adapter.placeOrder({
      client_order_id: `${symbol}-${volume}-${Math.random()}`,
      symbol,
      side: 'BUY',
      kind: 'MARKET',
      volume,
    });
    return r.fill_price!;
  }

  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e,
    );

  it('BTCUSD is margined at 1:2 on a 1:100 account: 0.10 lot near 95,000 needs about 4,750 USD', async () => {
    const adapter = await account(100);
    const ask = await buy(adapter, 'BTCUSD', 0.1);
    // 0.10 x 1 BTC x ask / 2, e.g. 0.10 x 95,000 / 2 = 4,750 USD (not 95 USD at 1:100).
    const info = await adapter.accountInfo();
    expect(info.margin).toBeCloseTo((0.1 * ask) / 2, 1);
    expect(info.margin).toBeGreaterThan(3_000);
    expect(info.leverage).toBe(100);
  });

  it('refuses 0.25 BTCUSD on 10,000 USD at 1:100 (0.25 x 95,000 / 2 = 11,875 USD) and opens nothing', async () => {
    const adapter = await account(100);
    const err = await refusal(buy(adapter, 'BTCUSD', 0.25));
    expect(err).toBeInstanceOf(BrokerError);
    expect((err as BrokerError).message).toMatch(
      /^Not enough free margin: [\d.]+ USD required, 10000\.00 USD available\.$/,
    );
    const required = Number(/: ([\d.]+) USD required/.exec((err as BrokerError).message)![1]);
    const q = brokerRegistry(h.ctx).sim.market.quoteAt('BTCUSD', WEDNESDAY);
    expect(required).toBeCloseTo((0.25 * q.ask) / 2, 1);
    expect((await adapter.reconcile()).positions).toHaveLength(0);
    // At 1:100 it would need 1% of that; 0.15 lot (7,125 USD at 95,000; the sim trades BTC between
    // about 80,000 and 130,000) still fits.
    expect(q.ask).toBeGreaterThan(80_000);
    expect(q.ask).toBeLessThan(130_000);
    await buy(adapter, 'BTCUSD', 0.15);
    expect((await adapter.reconcile()).positions).toHaveLength(1);
  });

  it('US100 and XAUUSD are margined at 1:20: 1 lot of US100 near 25,000 needs about 1,250 USD', async () => {
    const adapter = await account(100);
    const index = await buy(adapter, 'US100', 1);
    expect((await adapter.accountInfo()).margin).toBeCloseTo(index / 20, 1);
    // 0.10 lot of gold = 10 oz; near 4,000 USD an ounce that is 40,000 / 20 = 2,000 USD.
    const gold = await buy(adapter, 'XAUUSD', 0.1);
    expect((await adapter.accountInfo()).margin).toBeCloseTo(index / 20 + (0.1 * 100 * gold) / 20, 1);
  });

  it('FX keeps the account leverage: 1 lot EURUSD near 1.16 needs about 1,160 USD at 1:100, 232 USD at 1:500', async () => {
    const at100 = await account(100);
    const p100 = await buy(at100, 'EURUSD', 1);
    expect((await at100.accountInfo()).margin).toBeCloseTo((100_000 * p100) / 100, 1);
    const at500 = await account(500);
    const p500 = await buy(at500, 'EURUSD', 1);
    expect((await at500.accountInfo()).margin).toBeCloseTo((100_000 * p500) / 500, 1);
  });

  it('an account leverage below the cap wins: BTCUSD on a 1:1 account needs the full notional', async () => {
    const adapter = await account(1, 100_000);
    const ask = await buy(adapter, 'BTCUSD', 0.1);
    expect((await adapter.accountInfo()).margin).toBeCloseTo(0.1 * ask, 1);
    const gold = await buy(adapter, 'XAUUSD', 0.01);
    expect((await adapter.accountInfo()).margin).toBeCloseTo(0.1 * ask + 1 * gold, 1);
  });
});
