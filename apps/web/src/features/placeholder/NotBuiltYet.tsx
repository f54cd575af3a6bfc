import { Badge, Card, Stack, Text, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';

const WHAT: Record<string, string> = {
  dashboard: 'Open positions, live P/L and the Place a Trade window.',
  accounts: 'Broker accounts (MT5, cTrader and the simulated broker) and their connections.',
  history: 'Closed trades with their orders, journals and performance figures.',
  settings: 'Preferences and chart snapshot templates.',
  snapshots: 'Indicator templates for automated chart snapshots.',
  analysis: 'Analysis jobs on historical market data.',
  'win-rate': 'The minimum win rate a trading plan needs.',
  bots: 'Python trading bots, their versions, backtests and live runs.',
};

/** A screen whose feature has not landed yet: its title and an honest note, never a blank page. */
export function NotBuiltYet({ title, feature }: { title: string; feature: string }) {
  return (
    <Stack gap="md" maw={720}>
      <Title order={2}>{title}</Title>
      <Card withBorder padding="lg">
        <Stack gap="xs">
          <Badge leftSection={<IconTools size={14} />} variant="light" color="gray" w="fit-content">
            Not built yet
          </Badge>
          <Text>This screen is not built yet.</Text>
          {WHAT[feature] && (
            <Text c="dimmed" size="sm">
              Coming here: {WHAT[feature]}
            </Text>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
