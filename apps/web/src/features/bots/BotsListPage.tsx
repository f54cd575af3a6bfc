import { Alert, Badge, Button, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { BOT_TEXT, useBots } from './bots.api';

/** Trading Bots (`/bots`): one card per bot. */
export function BotsListPage() {
  const bots = useBots();
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Trading Bots
        </Title>
        <Button component={Link} to="/bots/new">
          Create New Bot
        </Button>
      </Group>
      {bots.isError ? (
        <Alert color="red" role="alert">
          {BOT_TEXT.fetchBots}
        </Alert>
      ) : bots.isPending ? (
        <Loader size="sm" />
      ) : bots.data.length === 0 ? (
        <Text c="dimmed">No bots yet.</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {bots.data.map((b) => (
            <Card key={b.id} withBorder data-testid="bot-card">
              <Stack gap={4}>
                <Group justify="space-between">
                  <Text fw={600}>{b.name}</Text>
                  <Badge color={b.is_active ? 'green' : 'gray'}>{b.is_active ? 'Active' : 'Inactive'}</Badge>
                </Group>
                <Text size="sm" c="dimmed">
                  ID: {b.id.slice(0, 8)}…
                </Text>
                <Text size="sm">Account: {b.account_id}</Text>
                <Text size="sm">Strategy: {b.strategy_template}</Text>
                <Button component={Link} to={`/bots/${b.id}`} variant="light" mt="sm">
                  View Details
                </Button>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
