import { Alert, Badge, Button, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ACCOUNT_TEXT, PLATFORM_LABEL, useAccounts } from '../accounts/accounts.api';

/** Choosing an account navigates to its trade history (spec: account selection page). */
export function SelectAccountForHistoryPage() {
  const accounts = useAccounts();
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Trade History
      </Title>
      <Text c="dimmed">Choose an account to review its trades.</Text>
      {accounts.isLoading ? (
        <Loader />
      ) : accounts.isError ? (
        <Alert color="red" variant="light">
          {ACCOUNT_TEXT.fetchFailed}
        </Alert>
      ) : (accounts.data ?? []).length === 0 ? (
        <Text c="dimmed">
          No accounts yet. <Link to="/accounts">Add an account</Link> first.
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {(accounts.data ?? []).map((a) => (
            <Card key={a.id} withBorder padding="md">
              <Stack gap="xs">
                <Group justify="space-between">
                  <Text fw={600}>{a.name}</Text>
                  <Badge variant="light">{PLATFORM_LABEL[a.platform]}</Badge>
                </Group>
                <Text size="sm" c="dimmed">
                  {a.broker || '—'}
                </Text>
                <Button
                  component={Link}
                  to={`/accounts/${a.id}/trade-history`}
                  variant="light"
                  leftSection={<IconHistory size={16} />}
                  aria-label={`View trade history of ${a.name}`}
                >
                  View Trade History
                </Button>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
