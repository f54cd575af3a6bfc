import '@mantine/charts/styles.css';
import { useState } from 'react';
import { LineChart } from '@mantine/charts';
import { Stack, Table, Text } from '@mantine/core';
import type { WinRatePoint } from '@tradedesk/domain';

/** Minimum win rate against risk per trade; out-of-reach risks leave a gap rather than a value above 100 %. */
export function WinRateChart({ points, hint = null }: { points: WinRatePoint[]; hint?: string | null }) {
  // Kept here, above the early return, so an open data table stays open while inputs are briefly invalid.
  const [showData, setShowData] = useState(false);
  if (points.length === 0) {
    return (
      <Text c="dimmed" size="sm" ta="center" py="xl">
        The chart appears when the inputs are valid.
      </Text>
    );
  }
  // Small ranges (0.1 % to 0.2 %) step by less than 0.01: one more decimal keeps the labels apart.
  const span = points.at(-1)!.riskPerTrade - points[0]!.riskPerTrade;
  const decimals = points.length > 1 && span / (points.length - 1) < 0.01 ? 3 : 2;
  const data = points.map((p) => ({
    risk: p.riskPerTrade.toFixed(decimals),
    minWinRate: p.minWinRate === null ? null : Math.round(p.minWinRate * 10000) / 100,
  }));
  const first = data[0]!.risk;
  const last = data.at(-1)!.risk;
  const unreachable = points.filter((p) => p.minWinRate === null).length;
  return (
    <Stack gap="xs">
      {hint && (
        <Text size="sm" data-testid="win-rate-reach-hint">
          {hint}
        </Text>
      )}
      <div
        role="img"
        aria-label={`Line chart of the minimum win rate for risk per trade from ${first}% to ${last}%`}
      >
        <LineChart
          h={280}
          data={data}
          dataKey="risk"
          series={[{ name: 'minWinRate', label: 'Minimum win rate', color: 'blue.6' }]}
          curveType="monotone"
          connectNulls={false}
          unit="%"
          yAxisProps={{
            domain: [0, 100],
            // Without it a series that is out of reach everywhere (all gaps) leaves the axis with no
            // scale: no 0-100% ticks and no 60/80 lines, just an empty box.
            allowDataOverflow: true,
            ticks: [0, 20, 40, 60, 80, 100],
            tickFormatter: (v: number) => String(v),
          }}
          xAxisLabel="Risk per trade (%)"
          referenceLines={[
            { y: 60, color: 'orange.5', label: '60%' },
            { y: 80, color: 'red.5', label: '80%' },
          ]}
          valueFormatter={(v) => `${v.toFixed(2)}`}
          tooltipAnimationDuration={0}
          lineProps={{ isAnimationActive: false }}
        />
      </div>
      {unreachable > 0 && (
        <Text size="xs" c="dimmed">
          The goal is out of reach at {unreachable} of the {points.length} risk levels: the line has a gap
          there.
        </Text>
      )}
      <details open={showData} onToggle={(e) => setShowData(e.currentTarget.open)}>
        <summary>
          <Text span size="sm">
            Chart data
          </Text>
        </summary>
        <Table striped aria-label="Minimum win rate by risk per trade" fz="sm" mt="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Risk per trade</Table.Th>
              <Table.Th>Minimum win rate</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.map((d, i) => (
              <Table.Tr key={i}>
                <Table.Td>{d.risk}%</Table.Td>
                <Table.Td>{d.minWinRate === null ? 'Out of reach' : `${d.minWinRate.toFixed(2)}%`}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </details>
    </Stack>
  );
}
