/**
 * Journal discipline: how many trades were journaled, with a snapshot, with a reason, and how the
 * journaled trades did against the others.
 */
import { FiguresAccumulator, type GroupFigures, type ReportTrade } from './figures';

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
  const yes = new FiguresAccumulator();
  const no = new FiguresAccumulator();
  let snap = 0;
  let reason = 0;
  for (const t of trades) {
    (t.journaled ? yes : no).add(t);
    if (t.with_snapshot) snap++;
    if (t.with_reason) reason++;
  }
  const n = trades.length;
  const journaled = yes.figures();
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
    not_journaled_figures: no.figures(),
  };
}
