import '@mantine/charts/styles.css';
import { memo } from 'react';
import { Card, Group, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { AreaChart } from '@mantine/charts';
import type { HistoryStats } from '@tradedesk/contract';
import { fmtNumber, NA, pnlColor } from './format';

function Stat({ label, value, color }: { label: string; value: string; color?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" c={color} className="num">
        {value}
      </Text>
    </Stack>
  );
}

/** Win rate, profit factor, net P/L and expectancy in R for the range, with its equity curve. */
export const StatsStrip = memo(function StatsStrip({
  stats,
  loading,
}: {
  stats: HistoryStats | undefined;
  loading: boolean;
}) {
  if (loading) return <Skeleton h={150} radius="md" />;
  if (!stats) return null;
  const pct = (v: number | null) => (v === null ? NA : `${(v * 100).toFixed(1)}%`);
  const curve = stats.equity_curve.map((p) => ({
    time: new Date(p.time).toLocaleDateString(),
    equity: p.equity,
  }));
  return (
    <Card withBorder padding="md" aria-label="Performance for the range">
      <Group align="stretch" gap="xl" wrap="wrap">
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md" style={{ flex: '1 1 320px' }}>
          <Stat label="Win rate" value={pct(stats.win_rate)} />
          <Stat
            label="Profit factor"
            value={
              stats.profit_factor === null ? (stats.wins > 0 ? '∞' : NA) : stats.profit_factor.toFixed(2)
            }
          />
          <Stat
            label={`Net P/L (${stats.currency})`}
            value={fmtNumber(stats.net_profit_loss, 2)}
            color={pnlColor(stats.net_profit_loss)}
          />
          <Stat
            label="Expectancy"
            value={
              stats.expectancy_r === null
                ? NA
                : `${stats.expectancy_r >= 0 ? '+' : ''}${stats.expectancy_r.toFixed(2)}R`
            }
            color={pnlColor(stats.expectancy_r)}
          />
          <Stat label="Closed trades" value={String(stats.trades)} />
          <Stat label={`Max drawdown (${stats.currency})`} value={fmtNumber(stats.max_drawdown, 2)} />
        </SimpleGrid>
        <Stack gap={4} style={{ flex: '2 1 360px', minWidth: 0 }}>
          <Text size="xs" c="dimmed">
            Equity curve (closed trades)
          </Text>
          {curve.length < 2 ? (
            <Text size="sm" c="dimmed">
              Not enough closed trades in this range to draw a curve.
            </Text>
          ) : (
            <AreaChart
              h={120}
              data={curve}
              dataKey="time"
              series={[{ name: 'equity', label: `P/L (${stats.currency})`, color: 'blue.6' }]}
              curveType="linear"
              withDots={false}
              gridAxis="none"
              withXAxis={false}
              aria-label="Equity curve"
            />
          )}
        </Stack>
      </Group>
    </Card>
  );
});
