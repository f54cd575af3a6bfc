/**
 * The stop entries a live run holds (armed by a bar's orders in live-orders.ts; the trades service
 * knows market and limit orders only). On every pass of the run's loop the account's quote of each
 * symbol with armed stops is read; a stop it crosses (ask ≥ price for a buy, bid ≤ price for a sell)
 * is sent as a market entry through the same path as any entry, under the client order id of the bar
 * and order that armed it (a retry or a restart finds the trade already placed), then dropped. The
 * list is stored with the run after every change, so that a restart re-arms it.
 */
import { describeStop, encodeArmedStops, stopTriggered, type ArmedStop } from '@tradedesk/domain';
import type { AppContext } from '../../context';
import type { TradingAccountsTable } from '../../db/schema';
import { tradeSync } from '../trade-sync/trade-sync';
import { countEntry, sendEntry, type BarOutcome, type OrderScope } from './live-orders';
import { liveRunsRepo } from './live-runs.repo';

export interface StopWatch {
  list(): readonly ArmedStop[];
  /** Takes the list a bar's orders left (stops armed or cancelled) and stores it with the run. */
  adopt(next: ArmedStop[]): Promise<void>;
  /** Sends the stops the account's quotes cross now; what they gave, as a bar's orders would. */
  fire(s: OrderScope, account: TradingAccountsTable): Promise<BarOutcome>;
}

export function stopWatch(ctx: AppContext, runId: string, initial: readonly ArmedStop[]): StopWatch {
  const repo = liveRunsRepo(ctx.db);
  let armed: readonly ArmedStop[] = initial;
  /** Stops whose trigger is logged already: a send retried while the broker is down logs it once. */
  const told = new Set<ArmedStop>();
  const save = () => repo.update(runId, { armed_stops: encodeArmedStops(armed) });

  return {
    list: () => armed,
    async adopt(next) {
      armed = next;
      await save();
    },
    async fire(s, account) {
      const out: BarOutcome = { placed: 0, refused: 0 };
      if (!armed.length) return out;
      const adapter = await tradeSync(ctx).attach(account);
      const quotes = new Map<string, { bid: number; ask: number }>();
      for (const stop of [...armed]) {
        if (s.stopped()) break;
        let quote = quotes.get(stop.symbol);
        if (!quote) {
          quote = await adapter.quote(stop.symbol);
          quotes.set(stop.symbol, quote);
        }
        if (!stopTriggered(stop.order, quote)) continue;
        if (!told.has(stop)) {
          told.add(stop);
          const side = stop.order.direction === 'BUY' ? `ask ${quote.ask}` : `bid ${quote.bid}`;
          await s.log(
            'info',
            `Stop entry ${describeStop(stop)} triggered (${side}): sending it at the market.`,
          );
        }
        const r = await sendEntry(s, stop.symbol, stop.barOpenMs, stop.index, stop.order, true);
        // The run is stopping: the stop stays with it, and ending the run cancels it.
        if (r === 'stopped') break;
        armed = armed.filter((a) => a !== stop);
        told.delete(stop);
        await save();
        if (countEntry(out, r)) break;
      }
      return out;
    },
  };
}
