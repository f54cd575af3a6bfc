import { Anchor, Card, Stack, Text, Title } from '@mantine/core';
import { IconCamera } from '@tabler/icons-react';
import { Link } from 'react-router';
import { TimeZoneCard } from './TimeZoneCard';

/** Settings: the trader's time zone and the way to the chart snapshot templates (spec: Settings). */
export function SettingsPage() {
  return (
    <Stack gap="md" maw={720}>
      <Title order={1} size="h2">
        Settings
      </Title>
      <Card withBorder padding="lg">
        <Stack gap="xs">
          <Anchor component={Link} to="/settings/chart-snapshot-configs" fw={600}>
            <IconCamera size={16} style={{ verticalAlign: 'text-bottom', marginRight: 6 }} />
            Chart Snapshot Configurations
          </Anchor>
          <Text size="sm" c="dimmed">
            Indicator templates used to draw the automated chart snapshots attached to your journal entries.
          </Text>
        </Stack>
      </Card>
      <TimeZoneCard />
    </Stack>
  );
}
