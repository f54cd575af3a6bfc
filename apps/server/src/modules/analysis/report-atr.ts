import type { ResultComponent, TableComponent } from '@tradedesk/contract';
import { bestCells, type AtrScenarioResult, type ScenarioCell } from '@tradedesk/domain';
import {
  dataKeyValues,
  interval,
  keyValues,
  num2,
  pct,
  SESSION_DEFINITIONS,
  table,
  type ReportContext,
} from './report-format';
import { percentBarChart } from './svg-chart';

/** The win-rate calculator with this cell's reward (R) and observed hit rate filled in. */
export const winRateLink = (c: ScenarioCell): string =>
  `/win-rate?r=${num2(c.rewardR)}&hit=${pct(c.hitRate.pct)}`;

const cellText = (c: ScenarioCell) =>
  Number.isFinite(c.hitRate.pct)
    ? `${c.hitRate.pct.toFixed(1)} % / ${c.expectancyR >= 0 ? '+' : ''}${c.expectancyR.toFixed(2)} R`
    : 'N/A';

function grid(r: AtrScenarioResult, direction: 'long' | 'short'): TableComponent {
  const cells = r.cells.filter((c) => c.direction === direction);
  const stops = [...new Set(cells.map((c) => c.m))];
  const targets = [...new Set(cells.map((c) => c.k))];
  return table(
    `${direction === 'long' ? 'Long' : 'Short'}: hit rate / expectancy by target (rows) and stop (columns), in ATR`,
    [['target', 'Target'], ...stops.map((m): [string, string] => [`m${m}`, `Stop ${m} ATR`])],
    targets.map((k) => ({
      target: `${k} ATR`,
      ...Object.fromEntries(
        stops.map((m) => [`m${m}`, cellText(cells.find((c) => c.k === k && c.m === m)!)]),
      ),
    })),
  );
}

export function atrScenarioReport(r: AtrScenarioResult, c: ReportContext): ResultComponent[] {
  const best = bestCells(r.cells, 5);
  const bestOf = (d: 'long' | 'short') =>
    bestCells(
      r.cells.filter((x) => x.direction === d),
      1,
    )[0];
  const describe = (x: ScenarioCell | undefined) =>
    x ? `${x.k} ATR target / ${x.m} ATR stop: ${cellText(x)}` : 'None with positive expectancy';
  const oneAtrStop = r.cells.filter((x) => x.direction === 'long' && x.m === 1);
  return [
    dataKeyValues(c),
    keyValues('Key figures', [
      ['Entries (bar opens)', r.entries],
      ['Horizon (bars)', r.horizonBars],
      ['Best long cell', describe(bestOf('long'))],
      ['Best short cell', describe(bestOf('short'))],
    ]),
    table(
      'Best cells (open in the win-rate calculator)',
      [
        ['direction', 'Direction'],
        ['target', 'Target (ATR)'],
        ['stop', 'Stop (ATR)'],
        ['reward', 'Reward (R)'],
        ['hit_rate', 'Hit rate %'],
        ['interval', '95 % interval'],
        ['expectancy', 'Expectancy (R)'],
        ['resolved', 'Resolved entries'],
        ['calculator', 'Win-rate calculator'],
      ],
      best.map((x) => ({
        direction: x.direction === 'long' ? 'Long' : 'Short',
        target: x.k,
        stop: x.m,
        reward: num2(x.rewardR),
        hit_rate: pct(x.hitRate.pct),
        interval: interval(x.hitRate),
        expectancy: num2(x.expectancyR),
        resolved: x.wins + x.losses,
        calculator: { text: 'Open in calculator', href: winRateLink(x) },
      })),
    ),
    grid(r, 'long'),
    grid(r, 'short'),
    table(
      'Session ranges in ATR',
      [
        ['session', 'Session'],
        ['count', 'Sessions'],
        ['mean', 'Mean'],
        ['median', 'Median'],
        ['p75', '75th percentile'],
        ['p90', '90th percentile'],
      ],
      r.sessionRanges.map((s) => ({
        session: s.session,
        count: s.count,
        mean: num2(s.mean),
        median: num2(s.median),
        p75: num2(s.p75),
        p90: num2(s.p90),
      })),
    ),
    {
      type: 'image_svg',
      title: 'Long hit rate by target with a 1 ATR stop',
      data: {
        svg_content: percentBarChart({
          title: `${c.symbol}: long hit rate by target, stop 1 ATR`,
          yLabel: 'Hit rate %',
          bars: oneAtrStop.map((x) => ({
            label: `${x.k} ATR`,
            value: x.hitRate.pct,
            low: x.hitRate.low,
            high: x.hitRate.high,
            count: x.wins + x.losses,
          })),
        }),
      },
    },
    keyValues('Definitions', [
      ...SESSION_DEFINITIONS,
      ['Entry', 'At every bar open, long and short; ATR = ATR(14) of the bar before the entry.'],
      ['Target / stop', 'Long: open + k × ATR / open − m × ATR; short mirrored.'],
      [
        'Win / loss',
        'The target reached in an earlier bar than the stop is a win; the stop first, or both inside the same bar (worst case), is a loss.',
      ],
      ['Unresolved', `Neither reached within ${r.horizonBars} bars: left out of the hit rate.`],
      [
        'Expectancy (R)',
        'hit rate × (k ÷ m) − (1 − hit rate), risk = m × ATR, before spread and commission.',
      ],
      ['Best cells', 'Positive expectancy with at least 30 resolved entries, highest expectancy first.'],
      ['Session range (ATR)', "The session's high − low ÷ ATR(14) of the bar before it opened."],
      [
        'Caution',
        'Entries overlap (one per bar), so they are not independent: intervals overstate the precision.',
      ],
    ]),
  ];
}
