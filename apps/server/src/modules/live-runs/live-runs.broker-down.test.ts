/**
 * A live run on an MT5 account while its bridge goes away: a short outage, even one that swallows the
 * answer to an order the bridge filled, is logged and ridden out without a second order for that bar; one longer than the
 * configured time fails the run with the reason, and nothing is sent after that. MT5 bars follow the
 * real clock, so each outage waits for an M1 bar to close (about three minutes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastClosedBarOpen } from '@tradedesk/domain';
import { FakeMt5Bridge } from '../../testing/mt5/fake-bridge';
import { createHarness, dbTargets, type Harness } from '../../test/harness';
import { EVERY_BAR_STRATEGY, FAST_LIVE_RUNS, liveKit } from '../../test/live-runs';
import { MINUTE } from '../../test/sim-clock';
import type { Trader } from '../../test/traders';
import { waitFor } from '../../test/wait-for';

const LOGIN = 7_004_321;
const PASSWORD = 'Mt5-Pa55word!down';
const SERVER = 'FakeBroker-Live07';
/** Long enough for the bridge to come back and the adapter to log in again on a loaded machine. */
const BROKER_DOWN_MS = 6000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

// On SQLite only: what is tested is the runner's reaction to the broker, which no database changes,
// and each database would add three minutes of real bars to the suite (the run's records on both
// databases are covered by live-runs.test.ts and live-runs.resume.test.ts).
describe('live runs: the broker down [sqlite]', () => {
  const target = dbTargets[0]!;
  let h: Harness;
  let bridge: FakeMt5Bridge;
  const { get, version, start, run, logs } = liveKit(() => h);

  beforeAll(async () => {
    bridge = await FakeMt5Bridge.start({
      accounts: [{ login: LOGIN, password: PASSWORD, server: SERVER, name: 'Dana Down' }],
      tickMs: 100,
      heartbeatMs: 200,
    });
    // Prices stand still: no stop or target closes a position behind the test's back.
    bridge.freeze();
    h = await createHarness(target, {
      mt5BridgeUrl: bridge.url,
      liveRuns: { ...FAST_LIVE_RUNS.liveRuns!, brokerDownMs: BROKER_DOWN_MS },
    });
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await bridge.stop();
  });

  /**
   * Waits until the run has dealt with the latest closed bar and the next close is at least 3 s
   * away, so that the bridge goes down between bars rather than in the middle of one.
   */
  async function betweenBars(t: Trader, id: string): Promise<void> {
    for (;;) {
      const bar = lastClosedBarOpen(Date.now(), MINUTE);
      await dealtWith(t, id, bar);
      const untilClose = bar + 2 * MINUTE - Date.now();
      if (untilClose > 3000) return;
      await sleep(untilClose + 100);
    }
  }

  /** Waits until the run has dealt with the bar that opened at `bar` (or a later one). */
  const dealtWith = (t: Trader, id: string, bar: number) =>
    waitFor(
      async () => {
        const at = (await run(t, id)).last_bar_at;
        return at !== null && Date.parse(at) >= bar;
      },
      `bar ${new Date(bar).toISOString()} of run ${id}`,
      MINUTE,
    );

  const logIndex = async (t: Trader, id: string, prefix: string) =>
    (await logs(t, id)).findIndex((m) => m.startsWith(prefix));

  it(
    'rides out a short outage without a second order, and fails on a long one, saying why',
    async () => {
      const { token, id: userId } = await h.user('dana');
      const created = await h.request('POST', '/api/accounts/create/', {
        token,
        body: {
          name: 'MT5 live',
          platform: 'MT5',
          account_number: String(LOGIN),
          password: PASSWORD,
          broker_server: SERVER,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const t: Trader = { token, userId, accountId: created.json().id };
      const { botId, versionId } = await version(t, EVERY_BAR_STRATEGY, {}, { accountId: t.accountId });
      const id = await start(t, versionId, { confirm_real_account: true });

      // The first bar that closes after the start: one order at the bridge.
      await waitFor(async () => (await run(t, id)).trades.length > 0, 'the first order', 2 * MINUTE);
      await betweenBars(t, id);
      expect(bridge.ordersSent).toBe((await run(t, id)).trades.length);

      // The next bar's order fills at the terminal, but the bridge dies before it answers; it is back
      // as soon as the run has noticed. The run tries the bar again with the same client order id.
      bridge.downAfter('POST /orders');
      await waitFor(
        async () => (await logIndex(t, id, 'The broker is unreachable: ')) >= 0,
        'the run to notice the outage',
        2 * MINUTE,
      );
      const interrupted = lastClosedBarOpen(Date.now(), MINUTE);
      bridge.setDown(false);
      await dealtWith(t, id, interrupted);
      const after = await run(t, id);
      expect(after.status).toBe('RUNNING');
      const unreachable = await logIndex(t, id, 'The broker is unreachable: ');
      const back = await logIndex(t, id, 'The broker answers again.');
      expect(back).toBeGreaterThan(unreachable);
      // The order the bridge filled is the run's, counted once: no second position at the bridge,
      // none refused, one trade per bar.
      const perBar = after.trades.filter((x) => x.bar_time === new Date(interrupted).toISOString());
      expect(perBar).toHaveLength(1);
      expect(perBar[0]!.status).toBe('open');
      expect(new Set(after.trades.map((x) => x.bar_time)).size).toBe(after.trades.length);
      expect(after).toMatchObject({ orders: after.trades.length, refused_orders: 0 });
      expect(bridge.ordersSent).toBe(after.trades.length);
      expect(bridge.openPositions(LOGIN)).toHaveLength(after.trades.length);

      // Down again, this time for longer than the run waits.
      await betweenBars(t, id);
      const before = await run(t, id);
      const sent = bridge.ordersSent;
      bridge.setDown(true);
      const failed = await waitFor(
        async () => {
          const r = await run(t, id);
          return r.status === 'FAILED' && r;
        },
        'the run to fail',
        2 * MINUTE + BROKER_DOWN_MS,
      );
      expect(failed.error_message).toBe(
        `The broker was unreachable for more than ${BROKER_DOWN_MS / 1000} s: MT5 broker is unavailable: The MT5 bridge is unreachable.`,
      );
      expect(failed.stopped_at).not.toBeNull();
      expect((await logs(t, id)).at(-1)).toBe(`Failed: ${failed.error_message}`);
      expect((await get(t, `/api/bots/bots/${botId}/`)).json().is_active).toBe(false);

      // The bridge back: a run still alive would now place the bar it was stuck on. Nothing leaves.
      bridge.setDown(false);
      await sleep(3000);
      expect(bridge.ordersSent).toBe(sent);
      expect((await run(t, id)).orders).toBe(before.orders);
    },
    6 * MINUTE,
  );
});
