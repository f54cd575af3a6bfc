import { ExcursionTally, excursionFigures, TRADE_SELL, type TradeExcursion } from '@tradedesk/domain';
import {
  DEFAULT_EXCURSION_TARGETS,
  WITHOUT_CANDLES_MAX_LISTED,
  type ReportExcursions,
  type ReportExcursionsQuery,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../request-context';
import { closedText } from './reports.columns';
import { excursionStore, NOT_MEASURED, MEASURED_NEGATIVE_FIRST } from './reports.excursions-store';
import type { reportsLoader } from './reports.load';

const DEFAULT_LIMIT = 1000;

/**
 * MFE and MAE of the closed trades in scope from the stored M1 candles of their symbol, the share of
 * winners that went negative first, "left on the table" per R target, and the trades the store has
 * no candles for. The figures are the domain's (`measureExcursion`, `excursionFigures`,
 * `ExcursionTally`); the price excursions are measured once per trade and kept (reports.excursions-store.ts).
 */
export function excursionsReport(ctx: AppContext, load: ReturnType<typeof reportsLoader>) {
  const excursionsOf = excursionStore(ctx);

  return async function excursions(user: AuthUser, q: ReportExcursionsQuery): Promise<ReportExcursions> {
    const { scope, accountRows, trades, chunks, chunkOf, localOf } = await load(user, q, {
      withTradeData: true,
    });
    const stored = await excursionsOf(user.id, accountRows, chunks);
    const direction = (r: number) => (trades.flags[r]! & TRADE_SELL ? 'SELL' : 'BUY');
    const risk = (r: number) => (Number.isNaN(trades.risk[r]!) ? null : trades.risk[r]!);
    /** Trade r's excursion in price, R and money; null when it was not measured. */
    const figures = (r: number): TradeExcursion | null => {
      const k = chunkOf[r]!;
      const i = localOf[r]!;
      const x = stored[k]!;
      if (x.state[i] === NOT_MEASURED) return null;
      const data = chunks[k]!.tradeData!;
      const entry = data.entry[i]!;
      const d = data.stopDistance[i]!;
      return excursionFigures(
        {
          id: data.ids[i]!,
          entry_price: entry,
          // NaN (no distance) and 0 alike mean no stop.
          stop_loss: d ? (direction(r) === 'BUY' ? entry - d : entry + d) : null,
          initial_risk_minor: risk(r),
          pnl_minor: trades.pnl[r]!,
        },
        {
          mfe_price: x.mfe[i]!,
          mae_price: x.mae[i]!,
          negative_first: x.state[i] === MEASURED_NEGATIVE_FIRST,
        },
      );
    };
    const tally = new ExcursionTally(q.targets ?? DEFAULT_EXCURSION_TARGETS);
    for (let r = 0; r < trades.length; r++)
      tally.add({ pnl_minor: trades.pnl[r]!, initial_risk_minor: risk(r) }, figures(r));

    const limit = q.limit ?? DEFAULT_LIMIT;
    const offset = q.offset ?? 0;
    const page: ReportExcursions['trades'] = [];
    const without: ReportExcursions['without_candles']['trades'] = [];
    let seen = 0;
    // Most recently closed first.
    for (let r = trades.length - 1; r >= 0; r--) {
      const measured = stored[chunkOf[r]!]!.state[localOf[r]!] !== NOT_MEASURED;
      const chunk = chunks[chunkOf[r]!]!;
      const i = localOf[r]!;
      const symbol = trades.texts[trades.symbol[r]!]!;
      if (measured && page.length < limit && seen++ >= offset)
        page.push({
          ...figures(r)!,
          symbol,
          direction: direction(r),
          closed_at: trades.closedAt(r),
          pnl_minor: trades.pnl[r]!,
        });
      else if (!measured && without.length < WITHOUT_CANDLES_MAX_LISTED)
        without.push({
          id: chunk.tradeData!.ids[i]!,
          symbol,
          opened_at: chunk.tradeData!.openedText.get(i) ?? new Date(chunk.facts.openedMs[i]!).toISOString(),
          closed_at: closedText(chunk, i),
        });
      if (page.length >= limit && without.length >= WITHOUT_CANDLES_MAX_LISTED) break;
    }
    return {
      ...scope,
      trades_total: trades.length,
      measured: tally.measured,
      without_candles: { count: tally.without, trades: without },
      winners: tally.winners,
      winners_negative_first: tally.negativeFirst,
      winners_negative_first_share: tally.negativeFirstShare,
      left_on_table: tally.left,
      offset,
      limit,
      trades: page,
    };
  };
}
