import { afterAll, beforeAll, expect, it } from 'vitest';
import { calculateLotSize } from '@tradedesk/domain';
import type { HistoryStats, HistoryTrade, HistoryTradesPage } from '@tradedesk/contract';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { brokerRegistry } from '../../brokers/registry';
import type { BrokerAdapter, Deal } from '../../brokers/types';
import { seedTrades, type SeedTrade } from './history.seed';
import { historySync } from './history.sync';

/** A Wednesday morning in London: FX is open. The sim's clock only moves when a test moves it. */
const WEDNESDAY = Date.parse('2026-01-07T10:00:00Z');
const MINUTE = 60_000;
let clock = WEDNESDAY;

async function waitFor<T>(probe: () => Promise<T | undefined | false>, what: string, ms = 8000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Trader {
  token: string;
  userId: string;
  accountId: string;
}

const cents = (deals: Deal[]) =>
  deals.reduce((s, d) => s + Math.round(d.profit * 100) + Math.round(d.commission * 100) + Math.round(d.swap * 100), 0);

describeEachDb('trade history API', (target) => {
  let h: Harness;
  let n = 0;
  beforeAll(async () => {
    clock = WEDNESDAY;
    h = await createHarness(target, { simNow: () => clock });
  });
  afterAll(() => h.close());

  async function trader(): Promise<Trader> {
    const { id, token } = await h.user(`historian${++n}`);
    const accounts = (await h.request('GET', '/api/accounts/', { token })).json() as Array<{ id: string }>;
    return { token, userId: id, accountId: accounts[0]!.id };
  }

  /** The SIM account's adapter itself: orders placed here bypass the trades API, like a broker's own terminal. */
  async function terminal(t: Trader): Promise<BrokerAdapter> {
    const account = await h.ctx.db
      .selectFrom('trading_accounts')
      .selectAll()
      .where('id', '=', t.accountId)
      .executeTakeFirstOrThrow();
    const adapter = await brokerRegistry(h.ctx).connected(account);
    // The run every connect starts is done before the test acts on the broker.
    await historySync(h.ctx).idle(t.accountId);
    return adapter;
  }

  const sync = async (t: Trader) => {
    const res = await h.request('POST', `/api/history/accounts/${t.accountId}/sync/`, { token: t.token });
    expect(res.statusCode).toBe(200);
    return res.json() as { new_deals: number; new_trades: number; updated_trades: number };
  };

  async function list(t: Trader, query = ''): Promise<HistoryTradesPage> {
    const res = await h.request('GET', `/api/history/accounts/${t.accountId}/trades/${query}`, { token: t.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  async function all(t: Trader, params: Record<string, string> = {}, limit = 500): Promise<HistoryTrade[]> {
    const out: HistoryTrade[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 1000; pages++) {
      const q = new URLSearchParams({ ...params, limit: String(limit), ...(cursor ? { cursor } : {}) });
      const page = await list(t, `?${q}`);
      out.push(...page.results);
      cursor = page.next_cursor;
      if (!cursor) return out;
    }
    throw new Error('too many pages');
  }

  const counts = async (accountId: string) => ({
    trades: (await h.ctx.db.selectFrom('trades').select('id').where('account_id', '=', accountId).execute()).length,
    deals: (await h.ctx.db.selectFrom('trade_deals').select('id').where('account_id', '=', accountId).execute())
      .length,
  });

  it('files positions opened in the broker terminal as external trades, once however often it runs', async () => {
    const t = await trader();
    const sim = await terminal(t);
    const opened = await sim.placeOrder({
      client_order_id: 'terminal-1',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'MARKET',
      volume: 0.3,
    });
    clock += 20 * MINUTE;
    await sim.closePosition(opened.position_id!, 0.1);
    clock += 20 * MINUTE;
    await sim.closePosition(opened.position_id!);
    const still = await sim.placeOrder({
      client_order_id: 'terminal-2',
      symbol: 'GBPUSD',
      side: 'SELL',
      kind: 'MARKET',
      volume: 0.2,
    });
    clock += 5 * MINUTE;

    const first = await sync(t);
    expect(first.new_trades).toBe(2);
    // Three deals of the closed position, the opening deal of the open one.
    expect(first.new_deals).toBe(4);
    const trades = await all(t);
    expect(trades).toHaveLength(2);
    const closed = trades.find((x) => x.instrument === 'EURUSD')!;
    const deals = (await sim.deals(new Date(WEDNESDAY - MINUTE).toISOString(), new Date(clock).toISOString())).filter(
      (d) => d.position_id === opened.position_id,
    );
    expect(closed).toMatchObject({
      direction: 'BUY',
      lot_size: 0.3,
      trade_status: 'closed',
      source: 'external',
      is_external: true,
      entry_price: opened.fill_price,
      closed_at: deals.at(-1)!.time,
      created_at: opened.filled_at,
    });
    expect(Math.round(closed.actual_profit_loss! * 100)).toBe(cents(deals));
    expect(closed.order_history.map((o) => [o.entry, o.filled_volume, o.deal_reason])).toEqual([
      ['IN', 0.3, 'MARKET'],
      ['OUT', 0.1, 'PARTIAL_CLOSE'],
      ['OUT', 0.2, 'CLOSE'],
    ]);
    const open = trades.find((x) => x.instrument === 'GBPUSD')!;
    expect(open).toMatchObject({
      direction: 'SELL',
      lot_size: 0.2,
      trade_status: 'open',
      is_external: true,
      actual_profit_loss: null,
      closed_at: null,
      created_at: still.filled_at,
    });
    expect(open.order_history.map((o) => o.entry)).toEqual(['IN']);

    // Running again adds nothing and changes nothing.
    const before = await counts(t.accountId);
    const again = await sync(t);
    expect(again).toMatchObject({ new_deals: 0, new_trades: 0, updated_trades: 0 });
    expect(await counts(t.accountId)).toEqual(before);
    expect(await all(t)).toEqual(trades);

    // Closed in the terminal later: the next run closes it; nothing is ever deleted.
    clock += 10 * MINUTE;
    await sim.closePosition(still.position_id!);
    clock += MINUTE;
    await sync(t);
    const after = (await all(t)).find((x) => x.id === open.id)!;
    expect(after.trade_status).toBe('closed');
    expect(after.order_history).toHaveLength(2);
    expect(after.closed_at).toBe(after.order_history[1]!.filled_at);
    expect((await counts(t.accountId)).trades).toBe(2);
  });
});
