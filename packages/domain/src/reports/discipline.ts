/**
 * Journal discipline: how many trades were journaled, with a snapshot, with a reason, and how the
 * journaled trades did against the others.
 */
import {
  columnsOf,
  TRADE_JOURNALED,
  TRADE_WITH_REASON,
  TRADE_WITH_SNAPSHOT,
  type ReportColumns,
} from './columns';
import { FigureTallies, rValues, type GroupFigures, type ReportTrade } from './figures';

export interface Discipline {
  trades: number;
  journaled: number;
  with_snapshot: number;
  with_reason: number;
  /** Shares 0..1; null without trades. */
  journaled_share: number | null;
  snapshot_share: number | null;
  reason_share: number | null;
  journaled_figures: GroupFigures;
  not_journaled_figures: GroupFigures;
}

export function journalDiscipline(trades: readonly ReportTrade[]): Discipline {
  return disciplineOf(columnsOf(trades));
}

/** `journalDiscipline` of the columns' trades. */
export function disciplineOf(c: Pick<ReportColumns, 'length' | 'pnl' | 'risk' | 'flags'>): Discipline {
  // Group 0: journaled, 1: not.
  const of = new Int32Array(c.length);
  let snap = 0;
  let reason = 0;
  for (let i = 0; i < c.length; i++) {
    const f = c.flags[i]!;
    of[i] = f & TRADE_JOURNALED ? 0 : 1;
    if (f & TRADE_WITH_SNAPSHOT) snap++;
    if (f & TRADE_WITH_REASON) reason++;
  }
  const tally = new FigureTallies(2);
  tally.addAll(of, c.pnl, rValues(c), c.length);
  const n = c.length;
  const journaled = tally.figures(0);
  const share = (k: number) => (n ? k / n : null);
  return {
    trades: n,
    journaled: journaled.trades,
    with_snapshot: snap,
    with_reason: reason,
    journaled_share: share(journaled.trades),
    snapshot_share: share(snap),
    reason_share: share(reason),
    journaled_figures: journaled,
    not_journaled_figures: tally.figures(1),
  };
}
