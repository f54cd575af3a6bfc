import { afterAll, beforeAll, expect, it } from 'vitest';
import { brokerRegistry } from '../../brokers/registry';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { WEDNESDAY } from '../../test/sim-clock';
import { newTrader } from '../../test/traders';
import { accountsRepo } from '../accounts/accounts.repo';
import { loadBacktestMarket } from './backtest-bars';

/** Issue 11: on SIM data a backtest's market orders fill at the exact price slippage_ms after the open. */
describeEachDb('backtest bars from the SIM market', (target) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(target, { simNow: () => WEDNESDAY });
  });
  afterAll(() => h?.close());

  it('carry the exact bid slippage_ms after each open, and none without latency', async () => {
    const t = await newTrader(h, 'latency-bars');
    const account = await accountsRepo(h.ctx.db).ownedOr404(t.userId, t.accountId);
    const window = [WEDNESDAY - 2 * 86_400_000, WEDNESDAY] as const;
    const load = (ms: number) => loadBacktestMarket(h.ctx, account, 'EURUSD', 'H1', ...window, 'USD', ms);

    const exact = await load(1500);
    const { time, open, latencyBid } = exact.bars;
    expect(time.length).toBe(48);
    expect(latencyBid).toHaveLength(48);
    const sim = brokerRegistry(h.ctx).sim.market;
    time.forEach((t, i) => expect(latencyBid![i]).toBe(sim.quoteAt('EURUSD', t + 1500).bid));
    // Not the open: the price moved in those 1.5 s on most bars.
    expect(time.filter((_, i) => latencyBid![i] !== open[i]).length).toBeGreaterThan(24);

    expect((await load(0)).bars.latencyBid).toBeNull();
  });
});
