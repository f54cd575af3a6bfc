import type { ReportTrade } from '@tradedesk/domain';
import { FS, JOURNAL_FIELDS, TRADE_FIELDS } from './reports.repo';

interface JournalSummary {
  strategy_tag: string | null;
  emotional_state: string | null;
  market_condition: string | null;
  has_reason: boolean;
  has_attachment: boolean;
}

const filled = (v: string | undefined) => (v && v.trim() ? v.trim() : null);

/**
 * Each trade's journal entries folded into one summary: entries arrive oldest first, so a later
 * non-empty value replaces an earlier one (the latest non-empty value of each field wins).
 */
function journalSummaries(packed: string): Map<string, JournalSummary> {
  const byTrade = new Map<string, JournalSummary>();
  if (!packed) return byTrade;
  const f = packed.split(FS);
  for (let i = 0; i + JOURNAL_FIELDS <= f.length; i += JOURNAL_FIELDS) {
    const id = f[i]!;
    let j = byTrade.get(id);
    if (!j) {
      j = {
        strategy_tag: null,
        emotional_state: null,
        market_condition: null,
        has_reason: false,
        has_attachment: false,
      };
      byTrade.set(id, j);
    }
    j.strategy_tag = filled(f[i + 1]) ?? j.strategy_tag;
    j.emotional_state = filled(f[i + 2]) ?? j.emotional_state;
    j.market_condition = filled(f[i + 3]) ?? j.market_condition;
    if (f[i + 4] === '1') j.has_reason = true;
    if (f[i + 5] === '1') j.has_attachment = true;
  }
  return byTrade;
}

/** A closed trade as the reports' copy keeps it: the report trade and what MFE/MAE needs besides. */
export interface FactTrade extends ReportTrade {
  entry_price: number | null;
  /** Entry to the initial stop: the distance filed at the fill, else entry to the stop held. */
  stop_distance: number | null;
}

const byClosing = (x: ReportTrade, y: ReportTrade) =>
  x.closed_at < y.closed_at ? -1 : x.closed_at > y.closed_at ? 1 : x.id < y.id ? -1 : x.id > y.id ? 1 : 0;

/**
 * The packed closed trades (reports.repo.ts) with what their journals say, read in one pass into the
 * domain's report trades, in closing order (restored if the aggregate did not keep it). One split of
 * the whole text and one object per trade: no per-row arrays, no intermediate rows.
 */
export function toReportTrades(packedTrades: string, packedJournals: string): FactTrade[] {
  if (!packedTrades) return [];
  const journals = journalSummaries(packedJournals);
  const f = packedTrades.split(FS);
  const n = Math.floor(f.length / TRADE_FIELDS);
  const out = new Array<FactTrade>(n);
  let sorted = true;
  for (let r = 0, i = 0; r < n; r++, i += TRADE_FIELDS) {
    const id = f[i]!;
    const j = journals.get(id);
    const risk = f[i + 6]!;
    const entry = f[i + 10]!;
    const stop = f[i + 11]!;
    const t: FactTrade = {
      id,
      symbol: f[i + 1]!,
      direction: f[i + 2] as 'BUY' | 'SELL',
      opened_at: f[i + 3]!,
      closed_at: f[i + 4]!,
      pnl_minor: Number(f[i + 5]),
      initial_risk_minor: risk === '' ? null : Number(risk),
      trader: f[i + 7]!,
      bot: f[i + 9] === '1',
      strategy_tag: j ? j.strategy_tag : null,
      emotional_state: j ? j.emotional_state : null,
      market_condition: j ? j.market_condition : null,
      journaled: j !== undefined,
      with_snapshot: j ? j.has_attachment : false,
      with_reason: f[i + 8] === '1' || (j ? j.has_reason : false),
      entry_price: entry === '' ? null : Number(entry),
      stop_distance: stop === '' ? null : Number(stop),
    };
    out[r] = t;
    if (sorted && r > 0 && byClosing(out[r - 1]!, t) > 0) sorted = false;
  }
  return sorted ? out : out.sort(byClosing);
}
