import type { ReportTrade } from '@tradedesk/domain';
import type { ClosedTradeRow, JournalRow } from './reports.repo';

const filled = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);

/**
 * Trades with what their journal says: each field is the latest non-empty value of the trade's
 * entries (journals arrive oldest first). Trades are kept in the order they came (closing order).
 */
export function toReportTrades(trades: ClosedTradeRow[], journals: JournalRow[]): ReportTrade[] {
  const byTrade = new Map<string, JournalRow[]>();
  for (const j of journals) {
    const list = byTrade.get(j.trade_id);
    if (list) list.push(j);
    else byTrade.set(j.trade_id, [j]);
  }
  return trades.map((t) => {
    const js = byTrade.get(t.id) ?? [];
    const latest = (k: 'strategy_tag' | 'emotional_state' | 'market_condition') => {
      for (let i = js.length - 1; i >= 0; i--) {
        const v = filled(js[i]![k]);
        if (v) return v;
      }
      return null;
    };
    return {
      id: t.id,
      symbol: t.symbol,
      direction: t.direction,
      opened_at: t.opened_at,
      closed_at: t.closed_at,
      pnl_minor: t.actual_pl_minor,
      initial_risk_minor: t.initial_risk_minor,
      trader: t.trader,
      strategy_tag: latest('strategy_tag'),
      emotional_state: latest('emotional_state'),
      market_condition: latest('market_condition'),
      journaled: js.length > 0,
      with_snapshot: js.some((j) => j.has_attachment),
      with_reason: t.has_reason || js.some((j) => j.has_reason),
    };
  });
}
