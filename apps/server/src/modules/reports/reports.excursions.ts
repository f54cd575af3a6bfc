import {
  summariseExcursions,
  tradeExcursion,
  type ExcursionTrade,
  type TradeExcursion,
} from '@tradedesk/domain';
import {
  DEFAULT_EXCURSION_TARGETS,
  WITHOUT_CANDLES_MAX_LISTED,
  type ReportExcursions,
  type ReportExcursionsQuery,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../request-context';
import { measureWithCandles } from './reports.candles';
import type { reportsLoader } from './reports.load';
import { reportsRepo } from './reports.repo';

const DEFAULT_LIMIT = 1000;

/**
 * MFE and MAE of the closed trades in scope from the stored M1 candles of their symbol, the share of
 * winners that went negative first, "left on the table" per R target, and the trades the store has
 * no candles for. The figures are the domain's (`tradeExcursion`, `summariseExcursions`).
 */
export function excursionsReport(ctx: AppContext, load: ReturnType<typeof reportsLoader>) {
  const repo = reportsRepo(ctx.db);

  return async function excursions(user: AuthUser, q: ReportExcursionsQuery): Promise<ReportExcursions> {
    const { scope, accountRows, filter, trades } = await load(user, q);
    const prices = trades.length ? await repo.tradePrices(filter) : new Map();
    // Trades without an entry price cannot be measured: they count with those without candles.
    const inputs: (ExcursionTrade & { account_id: string; symbol: string; at: number })[] = [];
    trades.forEach((t, at) => {
      const p = prices.get(t.id);
      if (!p || p.entry_price === null) return;
      const d = p.stop_distance;
      inputs.push({
        at,
        id: t.id,
        account_id: p.account_id,
        symbol: t.symbol,
        direction: t.direction,
        entry_price: p.entry_price,
        stop_loss: d ? (t.direction === 'BUY' ? p.entry_price - d : p.entry_price + d) : null,
        initial_risk_minor: t.initial_risk_minor,
        pnl_minor: t.pnl_minor,
        opened_at: t.opened_at,
        closed_at: t.closed_at,
      });
    });
    // Indexed like `trades` (closing order); null until measured.
    const measures = new Array<TradeExcursion | null>(trades.length).fill(null);
    await measureWithCandles(ctx, user.id, accountRows, inputs, (t, _i, m1) => {
      measures[t.at] = m1 ? tradeExcursion(t, m1) : null;
    });
    const report = summariseExcursions(trades, measures, q.targets ?? DEFAULT_EXCURSION_TARGETS);

    const limit = q.limit ?? DEFAULT_LIMIT;
    const offset = q.offset ?? 0;
    const page: ReportExcursions['trades'] = [];
    let seen = 0;
    for (let i = trades.length - 1; i >= 0 && page.length < limit; i--) {
      const x = measures[i];
      if (!x) continue;
      if (seen++ < offset) continue;
      const t = trades[i]!;
      page.push({
        ...x,
        symbol: t.symbol,
        direction: t.direction,
        closed_at: t.closed_at,
        pnl_minor: t.pnl_minor,
      });
    }
    const without: ReportExcursions['without_candles']['trades'] = [];
    for (let i = trades.length - 1; i >= 0 && without.length < WITHOUT_CANDLES_MAX_LISTED; i--) {
      if (measures[i]) continue;
      const t = trades[i]!;
      without.push({ id: t.id, symbol: t.symbol, opened_at: t.opened_at, closed_at: t.closed_at });
    }
    return {
      ...scope,
      trades_total: trades.length,
      measured: report.trades.length,
      without_candles: { count: report.without_candles.length, trades: without },
      winners: report.winners,
      winners_negative_first: report.winners_negative_first,
      winners_negative_first_share: report.winners_negative_first_share,
      left_on_table: report.left_on_table,
      offset,
      limit,
      trades: page,
    };
  };
}
