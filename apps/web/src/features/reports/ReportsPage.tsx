import { Card, Stack, Text, Title } from '@mantine/core';

export function ReportsPage() {
  return (
    <Stack gap="md" maw={720}>
      <Title order={2}>Reports</Title>
      <Card withBorder padding="lg">
        <Text>
          Reports are coming: performance by instrument, session and strategy tag across all your accounts.
        </Text>
        <Text c="dimmed" size="sm" mt="xs">
          Until then, each account&apos;s Trade History shows its win rate, profit factor and equity curve.
        </Text>
      </Card>
    </Stack>
  );
}
