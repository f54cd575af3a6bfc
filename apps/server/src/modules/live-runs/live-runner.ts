/**
 * One live run in this process: a sandbox with the strategy loaded, a loop that waits for each bar of
 * the run's timeframe to close, hands the strategy the closed bars and its position, and sends the
 * orders it asks for through the trades service. It stops on request, on its own safety rules
 * (sandbox crash or limits, the daily-loss rule, a broker down too long) or when this process shuts
 * down (the run stays RUNNING and resumes on the next start).
 */
import {
  decodeOrders,
  describeStop,
  lastClosedBarOpen,
  nextBarClose,
  TIMEFRAME_MS,
  type CandleTimeframe,
} from '@tradedesk/domain';
import type { AppContext } from '../../context';
import { BrokerError } from '../../brokers/types';
import type { TradesTable } from '../../db/schema';
import { knownErrorToHttp } from '../../lib/error-status';
import { nowIso } from '../../lib/ids';
import { candleStore } from '../../market/candle-store';
import { LiveSandboxError, startLiveSandbox, type LiveSandbox } from '../../sandbox/live-host';
import type { LivePosition } from '../../sandbox/protocol';
import { positionsService } from '../trades/positions.service';
import { executeBarOrders, type BarOutcome, type OrderScope } from './live-orders';
import { stopWatch, type StopWatch } from './live-stops';
import { finishRun, loadRunFacts, type RunFacts } from './live-run-finish';
import { liveRunEvents } from './live-run-events';
import { liveRunsRepo } from './live-runs.repo';

export interface Runner {
  readonly id: string;
  /** Stops the run: no new order after this call; resolves once it is STOPPED (or FAILED). */
  stop(reason: string, closePositions: boolean): Promise<void>;
  /** Leaves the run RUNNING for another start (server shutdown): ends the loop and the sandbox. */
  detach(): Promise<void>;
  pid(): number | undefined;
  readonly done: Promise<void>;
}

export interface RunnerHooks {
  owner: string;
  /** Called when an entry order is about to leave for the broker (decision latency). */
  onOrderSent?: (runId: string, barOpenMs: number, decidedInMs: number) => void;
  onFinished: (runId: string) => void;
}

const FLAT: LivePosition = { side: 0, entryPrice: 0, volume: 0, sl: NaN, tp: NaN, entryIndex: -1 };
/** Extra calendar time read before the window, so that weekends and daily breaks still leave it full. */
const WINDOW_SLACK_MS = 4 * 86_400_000;
/** After a bar's close, how long its candle may take to appear at the broker before it is skipped. */
const BAR_GRACE_MS = 30_000;
const MAX_CONSECUTIVE_ERRORS = 5;

export function startRunner(ctx: AppContext, runId: string, resumed: boolean, hooks: RunnerHooks): Runner {
  const repo = liveRunsRepo(ctx.db);
  const events = liveRunEvents(ctx);
  const cfg = ctx.config.liveRuns;
  let sandbox: LiveSandbox | undefined;
  let facts: RunFacts | undefined;
  let stopping: { reason: string; close: boolean; status: 'STOPPED' | 'FAILED' } | undefined;
  let detached = false;
  let wake: (() => void) | undefined;
  const log = (level: 'info' | 'warn' | 'error', message: string) =>
    facts ? events.log(runId, facts.user.id, level, message) : Promise.resolve();

  const request = (status: 'STOPPED' | 'FAILED', reason: string, close = false) => {
    stopping ??= { reason, close, status };
    wake?.();
  };
  const ended = () => stopping !== undefined || detached;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(done, Math.max(0, ms));
      function done() {
        clearTimeout(t);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  async function positionOf(symbol: string, time: Float64Array): Promise<LivePosition> {
    const open = (await repo.liveTrades(runId)).filter((t) => t.symbol === symbol && t.status === 'open');
    const t = open[open.length - 1];
    if (!t) return FLAT;
    const opened = Date.parse(t.opened_at ?? t.created_at);
    let entryIndex = -1;
    for (let i = time.length - 1; i >= 0; i--)
      if (time[i]! <= opened) {
        entryIndex = i;
        break;
      }
    return {
      side: t.direction === 'BUY' ? 1 : -1,
      entryPrice: t.entry_price ?? 0,
      volume: t.remaining_volume,
      sl: t.stop_loss ?? NaN,
      tp: t.take_profit ?? NaN,
      entryIndex,
    };
  }

  const scopeOf = (f: RunFacts, onEntry?: () => void): OrderScope => ({
    ctx,
    user: f.user,
    runId,
    accountId: f.account.id,
    strategyTag: f.strategyTag,
    journalTimeframe: f.journalTimeframe,
    defaultRiskPercent: f.riskPercent,
    log,
    stopped: ended,
    onEntry,
  });

  async function countOrders(outcome: BarOutcome) {
    if (outcome.placed || outcome.refused) await repo.bumpCounts(runId, outcome.placed, outcome.refused);
    if (outcome.dailyLossHit)
      request('STOPPED', `The account's daily-loss rule was hit: ${outcome.dailyLossHit}`);
  }

  /** The strategy's window of closed bars up to the bar that opened at `bar`, from the candle store. */
  function windowOf(f: RunFacts, symbol: string, bar: number) {
    const barMs = TIMEFRAME_MS[f.timeframe];
    return candleStore(ctx).series({
      userId: f.user.id,
      accountId: f.account.id,
      symbol,
      timeframe: f.timeframe as Exclude<CandleTimeframe, 'MN1'>,
      fromMs: bar - cfg.historyBars * barMs - WINDOW_SLACK_MS,
      toMs: bar + barMs,
    });
  }

  /**
   * Reads each symbol's window once before the first bar closes, so that the store holds its months
   * and the first decision, like every later one, asks the source only for the new bar (the first
   * read of a window costs a second or more). A failure here is left to the bar loop to meet.
   */
  async function warmUp(f: RunFacts) {
    const bar = lastClosedBarOpen(f.clock(), TIMEFRAME_MS[f.timeframe]);
    for (const symbol of f.symbols) {
      if (ended()) return;
      await windowOf(f, symbol, bar).catch(() => undefined);
    }
  }

  /** Runs the strategy on one closed bar of `symbol`; false when the bar is not at the broker yet. */
  async function onBar(
    f: RunFacts,
    stops: StopWatch,
    symbol: string,
    bar: number,
    now: number,
    detectedAt: number,
  ) {
    const barMs = TIMEFRAME_MS[f.timeframe];
    const series = await windowOf(f, symbol, bar);
    const n = series.close.length;
    if (!n || series.time[n - 1]! < bar) return now > bar + barMs + BAR_GRACE_MS;
    const from = Math.max(0, n - cfg.historyBars);
    const cut = (a: Float64Array) => a.slice(from);
    const bars = {
      time: cut(series.time),
      open: cut(series.open),
      high: cut(series.high),
      low: cut(series.low),
      close: cut(series.close),
      volume: cut(series.volume),
    };
    const [position, info] = await Promise.all([positionOf(symbol, bars.time), f.accountInfo()]);
    const step = await sandbox!.step({ symbol, bars, position, balance: info.balance });
    for (const line of step.output.split('\n').filter(Boolean).slice(0, 50))
      await log('info', `[strategy] ${line}`);
    const orders = decodeOrders(step.orders, step.tags, step.targets);
    if (orders.length && !ended()) {
      const scope = scopeOf(f, () => hooks.onOrderSent?.(runId, bar, performance.now() - detectedAt));
      const outcome = await executeBarOrders(
        scope,
        symbol,
        bar,
        orders,
        () => repo.liveTrades(runId),
        stops.list(),
      );
      if (outcome.armed) await stops.adopt(outcome.armed);
      await countOrders(outcome);
    }
    return true;
  }

  async function loop(f: RunFacts, stops: StopWatch) {
    const cursor: Record<string, number> = f.cursor;
    const barMs = TIMEFRAME_MS[f.timeframe];
    let lastBeat = 0;
    let lastStatusCheck = Date.now();
    let downSince: number | undefined;
    let errors = 0;
    while (!ended()) {
      const now = f.clock();
      if (Date.now() - lastBeat >= cfg.heartbeatMs) {
        lastBeat = Date.now();
        if (
          !(await repo.renew(runId, hooks.owner, new Date(lastBeat + cfg.leaseMs).toISOString(), nowIso()))
        ) {
          // Another process holds the run now (this one was presumed dead): let it go quietly.
          detached = true;
          break;
        }
      }
      if (Date.now() - lastStatusCheck >= Math.min(1000, cfg.heartbeatMs)) {
        lastStatusCheck = Date.now();
        // A stop asked through another server process.
        if ((await repo.status(runId)) === 'STOPPING') {
          const row = await repo.byId(runId);
          request('STOPPED', row?.stop_reason ?? 'Stopped by the user.', row?.close_on_stop === 1);
          break;
        }
      }
      try {
        for (const symbol of f.symbols) {
          const bar = lastClosedBarOpen(now, barMs);
          const last = cursor[symbol] ?? bar - barMs;
          if (bar <= last || ended()) continue;
          const detectedAt = performance.now();
          if (bar - last > barMs)
            await log(
              'info',
              `${symbol}: ${(bar - last) / barMs - 1} bar(s) passed unseen; acting on the latest.`,
            );
          if (await onBar(f, stops, symbol, bar, now, detectedAt)) {
            cursor[symbol] = bar;
            await repo.update(runId, { cursor: JSON.stringify(cursor) });
          }
        }
        // Armed stop entries are watched on every pass, at the account's live quote.
        if (stops.list().length && !ended()) await countOrders(await stops.fire(scopeOf(f), f.account));
        if (downSince !== undefined) await log('info', 'The broker answers again.');
        downSince = undefined;
        errors = 0;
      } catch (e) {
        if (e instanceof LiveSandboxError) {
          request('FAILED', e.message);
          break;
        }
        const http = knownErrorToHttp(e);
        const down = (e instanceof BrokerError && e.kind === 'unavailable') || http?.statusCode === 502;
        const detail = http ? String(http.detail) : ((e as Error)?.message ?? String(e));
        if (down) {
          if (downSince === undefined) await log('warn', `The broker is unreachable: ${detail}`);
          downSince ??= Date.now();
          if (Date.now() - downSince > cfg.brokerDownMs) {
            request(
              'FAILED',
              `The broker was unreachable for more than ${cfg.brokerDownMs / 1000} s: ${detail}`,
            );
            break;
          }
        } else {
          await log('error', `Error: ${detail}`);
          if (++errors >= MAX_CONSECUTIVE_ERRORS) {
            request('FAILED', `The run failed ${errors} times in a row; last error: ${detail}`);
            break;
          }
        }
      }
      const untilClose = nextBarClose(now, barMs) - now;
      await sleep(Math.min(cfg.pollMs, untilClose + 50));
    }
  }

  async function main() {
    try {
      facts = await loadRunFacts(ctx, runId);
      if (!facts) return;
      const f = facts;
      if (f.stopRequested) return request('STOPPED', f.stopRequested.reason, f.stopRequested.close);
      if (resumed) {
        await log('info', 'Resuming after a server restart: reconciling positions with the broker first.');
        await positionsService(ctx).openPositions(f.user, f.account.id);
        const open = (await repo.liveTrades(runId)).filter((t: TradesTable) => t.status === 'open');
        await log('info', `Reconciled: ${open.length} open position(s) of this run at the broker.`);
        for (const s of f.armedStops)
          await log(
            'info',
            `Stop entry ${describeStop(s)} re-armed (armed by the bar of ${new Date(s.barOpenMs).toISOString()}).`,
          );
      } else await log('info', `Starting ${f.strategyTag} on ${f.symbols.join(', ')} ${f.timeframe}.`);
      sandbox = await startLiveSandbox(f.code, f.paramsJson, {
        onDeath: (reason) => request('FAILED', reason),
      });
      if (ended()) return;
      await repo.transition(runId, ['STARTING', 'RUNNING'], {
        status: 'RUNNING',
        started_at: f.startedAt ?? nowIso(),
        last_heartbeat: nowIso(),
      });
      await repo.refreshBotActive(f.botId);
      events.status(runId, 'RUNNING');
      await log(
        'info',
        `Strategy loaded (${sandbox.style}); waiting for the next ${f.timeframe} bar to close.`,
      );
      await warmUp(f);
      await loop(f, stopWatch(ctx, runId, f.armedStops));
    } catch (e) {
      if (!ended()) {
        const detail = e instanceof LiveSandboxError ? e.message : String(knownErrorToHttp(e)?.detail ?? e);
        request('FAILED', e instanceof LiveSandboxError ? detail : `The run could not start: ${detail}`);
      }
    } finally {
      sandbox?.close();
      if (stopping && !detached) {
        await finishRun(ctx, runId, { ...stopping, owner: hooks.owner, log }).catch((err: unknown) =>
          ctx.log.error({ err, runId }, 'live run did not finish cleanly'),
        );
      } else await repo.release(runId, hooks.owner).catch(() => undefined);
      hooks.onFinished(runId);
    }
  }

  const done = main();
  return {
    id: runId,
    pid: () => sandbox?.pid,
    done,
    async stop(reason, closePositions) {
      request('STOPPED', reason, closePositions);
      await done;
    },
    async detach() {
      if (!stopping) detached = true;
      wake?.();
      sandbox?.close();
      await done;
    },
  };
}
