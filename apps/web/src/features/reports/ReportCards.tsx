import { Card, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReportSummary } from '@tradedesk/contract';
import { pnlColor } from '../history/format';
import { money, pct, ratio, rText } from './format';

function Figure({ label, value, color }: { label: string; value: string; color?: string }) {
  return (
    <Card withBorder padding="sm">
      <Stack gap={0}>
        <Text size="xs" c="dimmed">
          {label}
        </Text>
        <Text fw={700} size="lg" c={color} className="num">
          {value}
        </Text>
      </Stack>
    </Card>
  );
}

export function ReportCards({ summary: s }: { summary: ReportSummary }) {
  const f = s.figures;
  const d = s.discipline;
  const dec = s.currency_decimals;
  const streak = s.streaks.current;
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm" aria-label="Key figures">
      <Figure
        label={`Net P/L (${s.currency})`}
        value={money(f.net_minor, dec)}
        color={pnlColor(f.net_minor)}
      />
      <Figure label="Closed trades" value={String(f.trades)} />
      <Figure label="Win rate" value={pct(f.win_rate)} />
      <Figure label="Profit factor" value={ratio(f.profit_factor)} />
      <Figure label={`Expectancy (${s.currency})`} value={money(f.expectancy_minor, dec)} />
      <Figure label="Expectancy (R)" value={rText(f.expectancy_r)} color={pnlColor(f.expectancy_r)} />
      <Figure label={`Max drawdown (${s.currency})`} value={money(-s.max_drawdown_minor, dec)} />
      <Figure label="Longest winning streak" value={String(s.streaks.longest_win)} />
      <Figure label="Longest losing streak" value={String(s.streaks.longest_loss)} />
      <Figure
        label="Current streak"
        value={streak === 0 ? 'None' : `${Math.abs(streak)} ${streak > 0 ? 'wins' : 'losses'}`}
      />
      <Figure label="Journaled" value={pct(d.journaled_share)} />
      <Figure label="With a snapshot" value={pct(d.snapshot_share)} />
    </SimpleGrid>
  );
}
