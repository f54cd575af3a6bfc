import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '../../app/notify';
import { IconPlus } from '@tabler/icons-react';
import { errorMessage } from '../../app/errors';
import { LivePricesPanel } from '../market/LivePricesPanel';
import { ACCOUNT_TEXT, useAccounts } from './accounts.api';
import { AccountCard } from './AccountCard';
import { AddAccountModal } from './AddAccountModal';
import { EditAccountModal } from './EditAccountModal';

/** Manage Accounts (`/accounts`): account cards with Edit and Connect, the plus card, live prices. */
export function ManageAccountsPage() {
  const accounts = useAccounts();
  const [adding, setAdding] = useState(false);
  const [editingId, setEditingId] = useState<string | null>(null);
  const list = accounts.data ?? [];
  const editing = list.find((a) => a.id === editingId);

  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        Manage Accounts
      </Title>
      {accounts.isError ? (
        <Alert
          color="red"
          variant="light"
          role="alert"
          title={errorMessage(accounts.error, ACCOUNT_TEXT.fetchFailed)}
        >
          <Button size="xs" variant="light" onClick={() => void accounts.refetch()}>
            Retry
          </Button>
        </Alert>
      ) : accounts.isPending ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text c="dimmed">Loading accounts…</Text>
        </Group>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {list.map((a) => (
            <AccountCard key={a.id} account={a} onEdit={() => setEditingId(a.id)} />
          ))}
          <Card withBorder padding={0} style={{ borderStyle: 'dashed' }}>
            <UnstyledButton
              onClick={() => setAdding(true)}
              aria-label="Add New Account"
              h="100%"
              mih={160}
              p="lg"
              style={{
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
                flexDirection: 'column',
              }}
            >
              <IconPlus size={36} stroke={1.5} />
              <Text c="dimmed" size="sm" mt="xs">
                Add New Account
              </Text>
            </UnstyledButton>
          </Card>
        </SimpleGrid>
      )}
      {accounts.isSuccess && <LivePricesPanel accounts={list} />}
      <AddAccountModal
        opened={adding}
        onClose={() => setAdding(false)}
        onCreated={(a) => notifications.show({ message: `Account ${a.name} added`, color: 'teal' })}
      />
      {editing && <EditAccountModal key={editing.id} account={editing} onClose={() => setEditingId(null)} />}
    </Stack>
  );
}
