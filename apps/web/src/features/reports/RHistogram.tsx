import { Card, Text } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import type { ReportSummary } from '@tradedesk/contract';

const edge = (v: number) => `${v > 0 ? '+' : v < 0 ? '−' : ''}${Math.abs(v)}`;

/** A bin in words, for the list under the chart (the chart's ticks thin out when narrow). */
function binText(b: { from_r: number | null; to_r: number | null }): string {
  if (b.from_r === null) return `below ${edge(b.to_r!)}R`;
  if (b.to_r === null) return `${edge(b.from_r)}R and above`;
  return `${edge(b.from_r)}R to ${edge(b.to_r)}R`;
}

/** The R-multiple distribution: bars with their counts written on them, and the bins listed in words. */
export function RHistogram({ summary }: { summary: ReportSummary }) {
  const { bins, without_risk } = summary.r_histogram;
  const data = bins.map((b) => ({
    bin:
      b.from_r === null
        ? `< ${edge(b.to_r!)}R`
        : b.to_r === null
          ? `≥ ${edge(b.from_r)}R`
          : `${edge(b.from_r)}R`,
    trades: b.count,
  }));
  return (
    <Card withBorder padding="md" aria-label="R-multiple distribution">
      <Text fw={600}>R-multiple distribution</Text>
      <Text size="xs" c="dimmed" mb="xs">
        Trades per half-R bin (each bar labelled with its lower edge).
        {without_risk > 0 && ` ${without_risk} trades without a known risk are not shown.`}
      </Text>
      <BarChart
        h={220}
        data={data}
        dataKey="bin"
        series={[{ name: 'trades', label: 'Trades', color: 'blue.6' }]}
        withBarValueLabel
        tickLine="y"
      />
      <Text size="xs" mt="xs" aria-label="Trades per bin">
        {bins
          .filter((b) => b.count > 0)
          .map((b) => `${binText(b)}: ${b.count} ${b.count === 1 ? 'trade' : 'trades'}`)
          .join(' · ')}
      </Text>
    </Card>
  );
}
