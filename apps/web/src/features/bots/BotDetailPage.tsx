import { z } from 'zod';
import { Alert, Button, Card, Code, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../app/api';
import { BOT_TEXT, botsKey, useBot, useVersions } from './bots.api';

/** Bot detail (`/bots/{botId}`): details, versions with params and notes, Create New Version, Delete Bot. */
export function BotDetailPage() {
  const { botId = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const botQ = useBot(botId);
  const versions = useVersions(botId);
  const remove = useMutation({
    mutationFn: () => api.delete(`/bots/bots/${botId}/`, { schema: z.null() }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: botsKey });
      void navigate('/bots');
    },
  });
  if (botQ.isError || botQ.isPending)
    return (
      <Stack gap="lg">
        <Title order={1} size="h2">
          Bot
        </Title>
        {botQ.isError ? <Alert color="red">{BOT_TEXT.fetchBot(botId)}</Alert> : <Loader size="sm" />}
      </Stack>
    );
  const b = botQ.data;
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: 'Delete Bot',
      children: <Text size="sm">Delete this bot and all its versions, configurations and runs?</Text>,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(),
    });
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {b.name}
        </Title>
        <Group>
          <Button component={Link} to={`/bots/${botId}/versions/new`}>
            Create New Version
          </Button>
          <Button color="red" variant="light" onClick={confirmDelete}>
            Delete Bot
          </Button>
        </Group>
      </Group>
      {remove.isError && <Alert color="red">{BOT_TEXT.deleteBot}</Alert>}
      <Card withBorder>
        <Text size="sm">ID: {b.id}</Text>
        <Text size="sm">Account: {b.account_id}</Text>
        <Text size="sm">Strategy template: {b.strategy_template}</Text>
        <Text size="sm">Status: {b.is_active ? 'Active' : 'Inactive'}</Text>
        <Text size="sm">Created: {new Date(b.created_at).toLocaleString()}</Text>
      </Card>
      <Title order={3}>Versions</Title>
      {versions.data?.length ? (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Created</Table.Th>
              <Table.Th>Code hash</Table.Th>
              <Table.Th>Params</Table.Th>
              <Table.Th>Notes</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {versions.data.map((v) => (
              <Table.Tr key={v.id}>
                <Table.Td>{new Date(v.created_at).toLocaleString()}</Table.Td>
                <Table.Td>
                  <Code>{v.code_hash.slice(0, 12)}</Code>
                </Table.Td>
                <Table.Td>
                  <Code>{JSON.stringify(v.params)}</Code>
                </Table.Td>
                <Table.Td>{v.notes}</Table.Td>
                <Table.Td>
                  <Button size="xs" variant="light" component={Link} to={`/bots/${botId}/versions/${v.id}`}>
                    View
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text c="dimmed">No versions yet.</Text>
      )}
    </Stack>
  );
}
