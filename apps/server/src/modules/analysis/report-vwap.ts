import type { ResultComponent } from '@tradedesk/contract';
import { VWAP_POSITIONS, type DirectionSplit, type VwapConditionalResult } from '@tradedesk/domain';
import {
  dataKeyValues,
  keyValues,
  pct,
  SESSION_DEFINITIONS,
  table,
  type ReportContext,
} from './report-format';
import { percentBarChart } from './svg-chart';

const POSITION_LABEL = { above: 'Above VWAP', below: 'Below VWAP', at: 'At VWAP' } as const;
const COLUMNS: Array<[string, string]> = [
  ['up_pct', '% up'],
  ['down_pct', '% down'],
  ['flat_pct', '% flat'],
  ['total', 'Total transitions'],
];
const splitRow = (s: DirectionSplit) => ({
  up_pct: pct(s.up.pct),
  down_pct: pct(s.down.pct),
  flat_pct: pct(s.flat.pct),
  total: s.total,
});

export function vwapConditionalReport(r: VwapConditionalResult, c: ReportContext): ResultComponent[] {
  const first = r.transitions[0]!;
  const out: ResultComponent[] = [
    dataKeyValues(c),
    keyValues(
      'Key figures',
      VWAP_POSITIONS.flatMap((p): Array<[string, number | null]> => [
        [
          `${first.from} closed ${POSITION_LABEL[p].toLowerCase()}: ${first.to} up %`,
          pct(first.byPosition[p].up.pct),
        ],
        [`${first.from} closed ${POSITION_LABEL[p].toLowerCase()}: transitions`, first.byPosition[p].total],
      ]),
    ),
  ];
  for (const t of r.transitions) {
    out.push(
      table(
        `After ${t.from} (next: ${t.to})`,
        [['position', `${t.from} close`], ...COLUMNS],
        VWAP_POSITIONS.map((p) => ({ position: POSITION_LABEL[p], ...splitRow(t.byPosition[p]) })),
      ),
      table(
        `After ${t.from} (next: ${t.to}): by distance from VWAP`,
        [['distance', `${t.from} close vs VWAP`], ...COLUMNS],
        t.byDistance.map((b) => ({ distance: b.label, ...splitRow(b.split) })),
      ),
    );
  }
  out.push({
    type: 'image_svg',
    title: `${first.from} → ${first.to}: % up by distance from VWAP`,
    data: {
      svg_content: percentBarChart({
        title: `${c.symbol}: ${first.to} % up by ${first.from} close distance from VWAP (ATR)`,
        yLabel: '% up',
        reference: 50,
        bars: first.byDistance.map((b) => ({
          label: b.label.replace('below by ', '−').replace('above by ', '+').replace(' ATR', ''),
          value: b.split.up.pct,
          low: b.split.up.low,
          high: b.split.up.high,
          count: b.split.total,
        })),
      }),
    },
  });
  out.push(
    keyValues('Definitions', [
      ...SESSION_DEFINITIONS,
      [
        'VWAP',
        'Daily VWAP: Σ(typical price × volume) ÷ Σ volume from 00:00 UTC, typical price = (high + low + close) ÷ 3.',
      ],
      ['Position', "The session's close against the VWAP of its last bar: above, below, or at (equal)."],
      [
        '% up / down / flat',
        'Share of the next sessions that closed up / down / flat; Total transitions counts them.',
      ],
      [
        'Distance (ATR)',
        "(close − VWAP) ÷ ATR(14) at the session's last bar, in buckets 0–0.5, 0.5–1, 1–2, ≥ 2 on each side.",
      ],
    ]),
  );
  return out;
}
