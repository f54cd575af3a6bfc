import { ScatterChart } from '@mantine/charts';
import type { TradeExcursionRow } from '@tradedesk/contract';

/**
 * MFE against the final result, both in R, one point a trade (trades without a stop or a known risk
 * have no R and are left out). Points right of the diagonal gave back part of what they reached.
 * Loaded on its own (React.lazy): the chart library's scatter is only fetched when it is shown.
 */
export default function ExcursionScatter({ trades }: { trades: TradeExcursionRow[] }) {
  const round = (v: number) => Math.round(v * 100) / 100;
  const points = trades.flatMap((t) =>
    t.mfe_r !== null && t.final_r !== null ? [{ mfe: round(t.mfe_r), final: round(t.final_r) }] : [],
  );
  return (
    <ScatterChart
      h={260}
      data={[{ color: 'blue.6', name: 'Trades', data: points }]}
      dataKey={{ x: 'mfe', y: 'final' }}
      labels={{ x: 'MFE (R)', y: 'Final result (R)' }}
      unit={{ x: 'R', y: 'R' }}
      aria-label="MFE against final R, one point a trade"
    />
  );
}
