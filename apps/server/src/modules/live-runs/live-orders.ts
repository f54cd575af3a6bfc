/**
 * What a live run does with the orders of one bar: every entry goes through the trades service as a
 * person's trade would (server-side plan and lot size from risk, the account's risk rules, the broker's
 * idempotency key), then gets its journal entry; a stop entry is armed instead, to be sent the same
 * way once the quote crosses it (live-stops.ts); closes (which also cancel the symbol's armed stops)
 * and stop/target moves go through position management. Refusals are logged, never worked around.
 */
import { createHash } from 'node:crypto';
import {
  armStop,
  cancelStops,
  describeStop,
  liveEntryRequest,
  planRequest,
  type ArmedStop,
  type LiveEntryOrder,
  type LiveOrder,
} from '@tradedesk/domain';
import type { TradeExecuteRequest } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { BrokerError } from '../../brokers/types';
import type { TradesTable } from '../../db/schema';
import { knownErrorToHttp } from '../../lib/error-status';
import { nowIso } from '../../lib/ids';
import type { AuthUser } from '../../request-context';
import { accountsRepo } from '../accounts/accounts.repo';
import { journalService } from '../journal/journal.service';
import { tradeSync } from '../trade-sync/trade-sync';
import { executeTrade } from '../trades/execution';
import { positionsService } from '../trades/positions.service';
import { loadFacts } from '../trades/trade-facts';
import { liveRunsRepo } from './live-runs.repo';

export interface OrderScope {
  ctx: AppContext;
  user: AuthUser;
  runId: string;
  accountId: string;
  /** "<bot name> v<version number>": the journal's strategy_tag. */
  strategyTag: string;
  /** The journal's trade timeframe (1M, 5M, 15M, 1H, 4H, 1D) nearest the run's bars. */
  journalTimeframe: string;
  defaultRiskPercent: number;
  log(level: 'info' | 'warn' | 'error', message: string): Promise<void>;
  stopped(): boolean;
  /** Called as an entry leaves for the broker. */
  onEntry?: () => void;
}

export interface BarOutcome {
  placed: number;
  refused: number;
  /** Set when the account's daily-loss rule refused an order: the run stops itself. */
  dailyLossHit?: string;
  /** The run's armed stop entries after this bar's orders, when they armed or cancelled any. */
  armed?: ArmedStop[];
}

/**
 * Counts what became of one entry ('placed', 'stopped' or the refusal's detail); true when the
 * account's daily-loss rule refused it, which stops the run.
 */
export function countEntry(out: BarOutcome, result: string): boolean {
  if (result === 'placed') out.placed++;
  else if (result !== 'stopped') {
    out.refused++;
    if (result.startsWith('max_daily_loss')) {
      out.dailyLossHit = result;
      return true;
    }
  }
  return false;
}

/**
 * The broker's client order id of one order: the same run, bar and order always give the same id, so
 * a bar replayed after a restart finds the trade it already placed instead of placing another.
 */
export function liveClientOrderId(runId: string, barOpenMs: number, index: number, direction: string) {
  const h = createHash('sha256').update(`${runId}\n${barOpenMs}\n${index}\n${direction}`).digest('hex');
  return `bot-${h.slice(0, 32)}`;
}

const isoOf = (ms: number) => new Date(ms).toISOString();

export async function executeBarOrders(
  s: OrderScope,
  symbol: string,
  barOpenMs: number,
  orders: LiveOrder[],
  liveTrades: () => Promise<TradesTable[]>,
  armed: readonly ArmedStop[] = [],
): Promise<BarOutcome> {
  const out: BarOutcome = { placed: 0, refused: 0 };
  const positions = positionsService(s.ctx);
  for (const [index, order] of orders.entries()) {
    if (s.stopped()) break;
    if (order.type === 'entry' && order.kind === 2) {
      const stop: ArmedStop = { symbol, barOpenMs, index, order };
      const r = armStop(out.armed ?? armed, stop);
      if (!r.ok) {
        out.refused++;
        await s.log('warn', `Stop entry ${describeStop(stop)} refused: ${r.reason}`);
      } else if (r.added) {
        out.armed = r.armed;
        const side = order.direction === 'BUY' ? 'ask' : 'bid';
        await s.log(
          'info',
          `Stop entry ${order.direction} ${symbol} armed at ${order.price}${order.tag ? ` (${order.tag})` : ''}: sent at the market once the ${side} reaches it.`,
        );
      }
      continue;
    }
    if (order.type === 'close') {
      const { kept, cancelled } = cancelStops(out.armed ?? armed, symbol);
      if (cancelled.length) out.armed = kept;
      for (const c of cancelled)
        await s.log('info', `Stop entry ${describeStop(c)} cancelled by ctx.close().`);
    }
    if (order.type === 'entry') {
      if (countEntry(out, await sendEntry(s, symbol, barOpenMs, index, order))) break;
      continue;
    }
    const open = (await liveTrades()).filter((t) => t.symbol === symbol && t.status === 'open');
    for (const t of open) {
      if (s.stopped()) break;
      try {
        if (order.type === 'close') {
          const res = await positions.close(s.user, t.id);
          await s.log(
            'info',
            `Closed ${t.direction} ${t.symbol} ${t.id.slice(0, 8)}: P/L ${res.profit ?? 0}.`,
          );
        } else if (order.type === 'set_stop') {
          await positions.updateStopLoss(s.user, {
            trade_id: t.id,
            sl_update_type: 'specific_price',
            specific_price: order.price,
          });
          await s.log('info', `Moved the stop of ${t.id.slice(0, 8)} to ${order.price}.`);
        } else {
          await positions.updateTakeProfit(s.user, t.id, order.price);
          await s.log('info', `Moved the target of ${t.id.slice(0, 8)} to ${order.price}.`);
        }
      } catch (e) {
        if (e instanceof BrokerError && e.kind === 'unavailable') throw e;
        await s.log('warn', `${order.type} of ${t.id.slice(0, 8)} refused: ${detailOf(e)}`);
      }
    }
  }
  return out;
}

function detailOf(e: unknown): string {
  const http = knownErrorToHttp(e);
  if (http) return typeof http.detail === 'string' ? http.detail : JSON.stringify(http.detail);
  return (e as Error)?.message ?? String(e);
}

/**
 * One entry of the bar that opened at `barOpenMs` (its `index`-th order): 'placed', or the refusal's
 * detail (already logged). A `triggered` stop entry is sent at the market.
 */
export async function sendEntry(
  s: OrderScope,
  symbol: string,
  barOpenMs: number,
  index: number,
  order: LiveEntryOrder,
  triggered = false,
): Promise<string> {
  const what = `${order.direction} ${symbol}${order.tag ? ` (${order.tag})` : ''}`;
  const refuse = async (detail: string) => {
    await s.log('warn', `Order ${what} refused: ${detail}`);
    return detail;
  };
  try {
    const base = { account_id: s.accountId, symbol, lot_size: 1, direction: order.direction } as const;
    const account = await accountsRepo(s.ctx.db).ownedOr404(s.user.id, s.accountId);
    const quote = await (await tradeSync(s.ctx).attach(account)).quote(symbol);
    const mapped = liveEntryRequest(order, quote, s.defaultRiskPercent, { triggered });
    if (!mapped.ok) return await refuse(mapped.reason);
    const reason = order.tag ?? `${s.strategyTag}: ${order.direction === 'BUY' ? 'buy' : 'sell'} signal`;
    const body: TradeExecuteRequest = {
      ...base,
      ...mapped.request,
      reason,
      trader: s.strategyTag,
      timeframe: s.journalTimeframe,
    };
    // The server's own plan sets the lot (risk percent of equity over the stop distance), as the
    // Place a Trade modal does; executeTrade then plans again and checks it against the rules.
    const facts = await loadFacts(s.ctx, s.user, body);
    const plan = planRequest(body, facts.plan);
    body.lot_size = plan.volume > 0 ? plan.volume : facts.symbol.volume_min;
    if (s.stopped()) return 'stopped';
    const clientOrderId = liveClientOrderId(s.runId, barOpenMs, index, order.direction);
    s.onEntry?.();
    const res = await sendOnce(s, body, clientOrderId);
    const repo = liveRunsRepo(s.ctx.db);
    await repo.linkTrade({
      trade_id: res.trade_id,
      run_id: s.runId,
      user_id: s.user.id,
      symbol,
      bar_time: isoOf(barOpenMs),
      created_at: nowIso(),
    });
    await journalOnce(s, res.trade_id, reason);
    const targets = body.targets?.length
      ? `, ${body.targets.length} target(s)${body.keep_rest_open ? ' and a rest' : ''}`
      : '';
    await s.log(
      'info',
      `Order ${what} sent: ${body.lot_size} lots, stop ${body.stop_loss_distance} away${targets}, trade ${res.trade_id.slice(0, 8)} ${res.status}.`,
    );
    return 'placed';
  } catch (e) {
    if (e instanceof BrokerError && e.kind === 'unavailable') throw e;
    const http = knownErrorToHttp(e);
    if (!http || http.statusCode >= 500) throw e;
    return refuse(detailOf(e));
  }
}

/**
 * Sends the entry with its client order id. When an earlier send of the same order lost its answer
 * (the broker went down meanwhile), its trade stays "submitting" and the send answers 409: the
 * positions are reconciled with the broker first, which settles that trade (found open, or cancelled
 * when the broker never had it), and the send is tried once more. Still unsettled: the broker is
 * treated as unreachable and the bar is tried again on the next pass, never counted as refused.
 */
export async function sendOnce(s: OrderScope, body: TradeExecuteRequest, clientOrderId: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await executeTrade(s.ctx, s.user, body, { clientOrderId });
    } catch (e) {
      if (knownErrorToHttp(e)?.statusCode !== 409) throw e;
      if (attempt > 1) throw new BrokerError('an earlier send of this order is not settled yet');
      await s.log('info', 'An earlier send of this order lost its answer: reconciling with the broker.');
      await positionsService(s.ctx).openPositions(s.user, s.accountId);
    }
  }
}

/** The trade's journal entry, written once even when a bar is replayed after a restart. */
async function journalOnce(s: OrderScope, tradeId: string, reason: string) {
  const existing = await s.ctx.db
    .selectFrom('trade_journals')
    .select('id')
    .where('user_id', '=', s.user.id)
    .where('trade_id', '=', tradeId)
    .where('strategy_tag', '=', s.strategyTag)
    .executeTakeFirst();
  if (existing) return;
  await journalService(s.ctx).create(s.user, {
    trade: tradeId,
    action: 'Opened Position',
    trade_timeframe: s.journalTimeframe,
    reason,
    details: `Placed by live run ${s.runId}.`,
    strategy_tag: s.strategyTag,
  });
}
