/**
 * A bot's multi-target entry on the SIM account with a test clock, on SQLite (and PostgreSQL when
 * TEST_DATABASE_URL is set): the trades service manages its targets as it does a person's multi-TP
 * trade (the first closed by the server as a partial close, the last as the broker's take profit),
 * history shows the partial close, and the strategy's next ctx.position holds what is left.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { HistoryTrade } from '@tradedesk/contract';
import { brokerRegistry } from '../../brokers/registry';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { FAST_LIVE_RUNS, liveKit } from '../../test/live-runs';
import { HOUR, MINUTE, WEDNESDAY } from '../../test/sim-clock';
import { newTrader } from '../../test/traders';
import { waitFor } from '../../test/wait-for';

/** Enters once, on the side and with the targets the test names in the version's params. */
const TARGETS_STRATEGY = `
def on_bar(ctx, bar):
    p = ctx.position
    print("position volume", p.volume if p is not None else None)
    if p is None and not ctx.state.get("entered"):
        ctx.state["entered"] = True
        order = ctx.buy if ctx.params["side"] == "BUY" else ctx.sell
        order(sl_distance=0.002, targets=ctx.params["targets"], tag="with targets")
`;

let clock = WEDNESDAY + 3 * HOUR + 30_000;

describeEachDb('live runs: targets', (target) => {
  let h: Harness;
  const { get, version, start, run, logs, barDone, post } = liveKit(() => h);

  beforeAll(async () => {
    h = await createHarness(target, { simNow: () => clock, ...FAST_LIVE_RUNS });
  }, 60_000);
  afterAll(() => h.close());

  /**
   * The side whose exit price first gets `away` beyond the entry quote at `from`, looking at the
   * minute instants the test clock visits (the sim is deterministic, so the test can pick it).
   */
  const quote = (t: number) => brokerRegistry(h.ctx).sim.market.quoteAt('EURUSD', t);
  function winningSide(from: number, away: number): 'BUY' | 'SELL' {
    const q0 = quote(from);
    for (let t = from + MINUTE; t < from + 24 * HOUR; t += MINUTE) {
      const q = quote(t);
      if (q.bid >= q0.ask + away) return 'BUY';
      if (q.ask <= q0.bid - away) return 'SELL';
    }
    throw new Error('the price does not move that far');
  }

  /**
   * Starts a run of the targets strategy, lets the first M1 bar close (the entry), then more bars
   * until the quote passes the first target (0.25 R = 5 pips), and waits for its partial close.
   */
  async function reachFirstTarget(name: string, targets: unknown) {
    const t = await newTrader(h, name);
    // The entry is placed when the next M1 bar closes, at that instant's quote (0.0006 searched
    // leaves room for the fill).
    const side = winningSide(Math.floor(clock / MINUTE) * MINUTE + MINUTE, 0.0006);
    const dir = side === 'BUY' ? 1 : -1;
    const { versionId } = await version(t, TARGETS_STRATEGY, { side, targets }, { name: 'Targets' });
    const id = await start(t, versionId);
    const step = async () => {
      clock += MINUTE;
      await barDone(t, id, Math.floor(clock / MINUTE) * MINUTE - MINUTE);
    };
    await step();
    const [placed] = (await run(t, id)).trades;
    expect(placed).toMatchObject({ direction: side, status: 'open', reason: 'with targets' });
    const trade = async () => (await get(t, `/api/history/trades/${placed!.id}/`)).json() as HistoryTrade;
    const opened = await trade();
    const first = Number((opened.entry_price! + dir * 0.25 * 0.002).toFixed(5));
    for (let k = 0; k < 600; k++) {
      await step();
      const q = quote(clock);
      if (side === 'BUY' ? q.bid >= first : q.ask <= first) break;
    }
    const hit = await waitFor(
      async () => (await trade()).order_history.find((o) => o.deal_reason === 'TARGET'),
      'the first target',
      30_000,
    );
    const lots = placed!.lot_size;
    const half = Math.floor(lots * 50 + 1e-9) / 100;
    return { t, id, dir, step, trade, opened, hit, lots, half, left: Math.round((lots - half) * 100) / 100 };
  }

  const managed = async (tradeId: string) =>
    JSON.parse(
      (
        await h.ctx.db
          .selectFrom('trades')
          .select('targets')
          .where('id', '=', tradeId)
          .executeTakeFirstOrThrow()
      ).targets!,
    ).map((x: { status: string; managed_by: string }) => [x.status, x.managed_by]);

  it('two targets: the first is closed as a partial close; history shows it; ctx.position shows what is left', async () => {
    const r = await reachFirstTarget('targets-1', [[0.25, 0.5], { r: 5, share: 0.5 }]);
    // A person's multi-TP trade: the take profit at the broker is the last target, 5 R away.
    expect(r.opened.take_profit! - r.opened.entry_price!).toBeCloseTo(r.dir * 5 * 0.002, 4);
    expect((await logs(r.t, r.id)).some((m) => m.includes('lots, stop 0.002 away, 2 target(s), trade'))).toBe(
      true,
    );
    expect(r.hit).toMatchObject({ entry: 'OUT', filled_volume: r.half, order_type: 'CLOSE' });
    expect(await r.trade()).toMatchObject({ trade_status: 'open', lot_size: r.lots });
    expect(await managed(r.opened.id)).toEqual([
      ['hit', 'server'],
      ['pending', 'broker'],
    ]);

    // The strategy's next bar sees the position with what is left.
    await r.step();
    expect(await logs(r.t, r.id)).toContain(`[strategy] position volume ${r.left}`);
    expect((await run(r.t, r.id)).open_positions).toMatchObject([{ lot_size: r.left }]);

    const stopped = await post(r.t, `/api/bots/live-runs/${r.id}/stop/`, { close_positions: true });
    expect(stopped.json()).toMatchObject({ status: 'STOPPED', open_positions: [] });
    const closed = await r.trade();
    expect(closed.trade_status).toBe('closed');
    expect(closed.order_history.filter((o) => o.entry === 'OUT').map((o) => o.filled_volume)).toEqual([
      r.half,
      r.left,
    ]);
  }, 600_000);

  it('targets that leave a rest: the server closes every target, the rest stays open without a take profit', async () => {
    const r = await reachFirstTarget('targets-2', [[0.25, 0.5]]);
    expect(r.opened.take_profit).toBeNull();
    expect((await logs(r.t, r.id)).some((m) => m.includes('1 target(s) and a rest, trade'))).toBe(true);
    expect(r.hit).toMatchObject({ entry: 'OUT', filled_volume: r.half });
    expect(await managed(r.opened.id)).toEqual([['hit', 'server']]);
    await r.step();
    expect(await logs(r.t, r.id)).toContain(`[strategy] position volume ${r.left}`);
    expect(await r.trade()).toMatchObject({ trade_status: 'open', take_profit: null });
    await post(r.t, `/api/bots/live-runs/${r.id}/stop/`, { close_positions: true });
  }, 600_000);
});
