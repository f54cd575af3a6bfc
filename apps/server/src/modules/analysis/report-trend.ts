import type { ResultComponent } from '@tradedesk/contract';
import type { ContinuationResult } from '@tradedesk/domain';
import {
  dataKeyValues,
  interval,
  keyValues,
  pct,
  SESSION_DEFINITIONS,
  table,
  type ReportContext,
} from './report-format';
import { percentBarChart } from './svg-chart';

export function trendContinuationReport(r: ContinuationResult, c: ReportContext): ResultComponent[] {
  const first = r.transitions[0]!;
  const out: ResultComponent[] = [
    dataKeyValues(c),
    keyValues('Key figures', [
      ['Previous session', first.from],
      ['Next session', first.to],
      ['Comparable days', first.comparableDays],
      ['Days continued', first.continuedDays],
      ['Continuation %', pct(first.rate.pct)],
      ['95 % interval', interval(first.rate)],
    ]),
    table(
      'Summary: all transitions',
      [
        ['transition', 'Transition'],
        ['comparable_days', 'Comparable days'],
        ['days_continued', 'Days continued'],
        ['continuation_pct', 'Continuation %'],
        ['interval', '95 % interval'],
        ['flat_previous', 'Flat previous (excluded)'],
      ],
      r.transitions.map((t) => ({
        transition: `${t.from} → ${t.to}`,
        comparable_days: t.comparableDays,
        days_continued: t.continuedDays,
        continuation_pct: pct(t.rate.pct),
        interval: interval(t.rate),
        flat_previous: t.flatPreviousDays,
      })),
    ),
  ];
  for (const t of r.transitions) {
    out.push(
      table(
        `${t.from} → ${t.to}: by previous session range (in ATR)`,
        [
          ['bucket', 'Previous range'],
          ['days', 'Days'],
          ['continuation_pct', 'Continuation %'],
          ['interval', '95 % interval'],
        ],
        t.byRange.map((b) => ({
          bucket: b.label,
          days: b.rate.total,
          continuation_pct: pct(b.rate.pct),
          interval: interval(b.rate),
        })),
      ),
      table(
        `${t.from} → ${t.to}: by weekday`,
        [
          ['weekday', 'Weekday'],
          ['days', 'Days'],
          ['continuation_pct', 'Continuation %'],
          ['interval', '95 % interval'],
        ],
        t.byWeekday.map((b) => ({
          weekday: b.label,
          days: b.rate.total,
          continuation_pct: pct(b.rate.pct),
          interval: interval(b.rate),
        })),
      ),
    );
  }
  out.push({
    type: 'image_svg',
    title: `${first.from} → ${first.to}: continuation % by previous range`,
    data: {
      svg_content: percentBarChart({
        title: `${c.symbol} ${first.from} → ${first.to}: continuation by previous range (ATR)`,
        yLabel: 'Continuation %',
        reference: 50,
        bars: first.byRange.map((b) => ({
          label: b.label,
          value: b.rate.pct,
          low: b.rate.low,
          high: b.rate.high,
          count: b.rate.total,
        })),
      }),
    },
  });
  out.push(
    keyValues('Definitions', [
      ...SESSION_DEFINITIONS,
      ['Comparable days', 'Days whose previous session was not flat.'],
      [
        'Days continued',
        'Comparable days whose next session closed in the same direction (a flat next session does not continue).',
      ],
      ['Continuation %', 'Days continued ÷ comparable days × 100.'],
      [
        'Previous range (ATR)',
        "The previous session's high − low divided by ATR(14) at its last bar; buckets are the quintiles of the observed ranges.",
      ],
    ]),
  );
  return out;
}
