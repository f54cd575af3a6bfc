import { useState, type FormEvent } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  ScrollArea,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '../../app/notify';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WATCHLIST_MESSAGES } from '@tradedesk/contract';
import { errorMessage } from '../../app/errors';
import { useMe } from '../../app/useSession';
import { addWatchlistItem, removeWatchlistItem, useWatchlist, WATCHLIST_KEY } from './watchlist.api';

export const WATCHLIST_TEXT = {
  fetchFailed: 'Failed to fetch watchlist items. Please try again.',
  addFailed: 'Failed to add item. Check if it already exists or try again.',
  removeFailed: 'Failed to remove item. Please try again.',
  deleted: 'Item deleted successfully',
} as const;

export function WatchlistModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const { items, isLoading, isError, refetch } = useWatchlist();
  const me = useMe();
  const [instrument, setInstrument] = useState('');
  const [exchange, setExchange] = useState('');
  const [global, setGlobal] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const add = useMutation({
    mutationFn: addWatchlistItem,
    onSuccess: async () => {
      setInstrument('');
      setExchange('');
      setGlobal(false);
      setError(null);
      await qc.invalidateQueries({ queryKey: WATCHLIST_KEY });
    },
    onError: (err) => setError(errorMessage(err, WATCHLIST_TEXT.addFailed)),
  });
  const remove = useMutation({
    mutationFn: removeWatchlistItem,
    onSuccess: async () => {
      notifications.show({ message: WATCHLIST_TEXT.deleted, color: 'teal' });
      setError(null);
      await qc.invalidateQueries({ queryKey: WATCHLIST_KEY });
    },
    onError: (err) => setError(errorMessage(err, WATCHLIST_TEXT.removeFailed)),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const i = instrument.trim().toUpperCase();
    const x = exchange.trim().toUpperCase();
    if (!i || !x) return setError(WATCHLIST_MESSAGES.required);
    if (items.some((it) => it.instrument === i && it.exchange === x))
      return setError(WATCHLIST_MESSAGES.duplicate);
    setError(null);
    add.mutate({ instrument: i, exchange: x, ...(global ? { is_global: true } : {}) });
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Manage Watchlist" size="lg">
      <Stack gap="md">
        <form onSubmit={submit} noValidate>
          <Group align="flex-end" gap="sm" wrap="wrap">
            <TextInput
              label="Instrument"
              placeholder="EURUSD"
              value={instrument}
              onChange={(e) => setInstrument(e.currentTarget.value.toUpperCase())}
              data-autofocus
              style={{ flex: 1, minWidth: 140 }}
            />
            <TextInput
              label="Exchange"
              placeholder="FX"
              value={exchange}
              onChange={(e) => setExchange(e.currentTarget.value.toUpperCase())}
              style={{ flex: 1, minWidth: 120 }}
            />
            <Button type="submit" loading={add.isPending}>
              Add
            </Button>
          </Group>
          {me.data?.is_staff && (
            <Checkbox
              mt="xs"
              label="Global (visible to every user)"
              checked={global}
              onChange={(e) => setGlobal(e.currentTarget.checked)}
            />
          )}
        </form>
        {error && (
          <Alert color="red" role="alert" variant="light">
            {error}
          </Alert>
        )}
        {isError ? (
          <Alert color="red" variant="light" title={WATCHLIST_TEXT.fetchFailed}>
            <Button size="xs" variant="light" onClick={() => void refetch()}>
              Retry
            </Button>
          </Alert>
        ) : isLoading ? (
          <Group justify="center" p="md">
            <Loader size="sm" />
          </Group>
        ) : items.length === 0 ? (
          <Text c="dimmed" ta="center" p="md">
            Your watchlist is empty. Add an instrument and its exchange above.
          </Text>
        ) : (
          <ScrollArea.Autosize mah={360}>
            <Table striped highlightOnHover aria-label="Watchlist items">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Instrument</Table.Th>
                  <Table.Th>Exchange</Table.Th>
                  <Table.Th w={60} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((item) => {
                  const canRemove = !item.is_global || me.data?.is_staff;
                  return (
                    <Table.Tr key={item.id}>
                      <Table.Td>
                        <Group gap={6}>
                          <Text fw={600}>{item.instrument}</Text>
                          {item.is_global && (
                            <Badge size="xs" variant="light" color="grape">
                              (Global)
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>{item.exchange}</Table.Td>
                      <Table.Td>
                        {canRemove && (
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Remove ${item.instrument} ${item.exchange}`}
                            loading={remove.isPending && remove.variables === item.id}
                            onClick={() => remove.mutate(item.id)}
                          >
                            <IconTrash size={16} />
                          </ActionIcon>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        )}
      </Stack>
    </Modal>
  );
}
