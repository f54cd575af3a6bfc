import { useState } from 'react';
import { Alert, Badge, Button, Group, Table, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { errorMessage } from '../../app/errors';
import { LIVE_RUN_TEXT, liveRunsKey, startLiveRun, STATUS_COLOR, useLiveRuns } from './liveRuns.api';

/** Start Live Run (the spec's button; the new run's id in an alert) and the version's live runs. */
export function StartLiveRunButton({
  versionId,
  onMessage,
}: {
  versionId: string;
  onMessage: (m: Message) => void;
}) {
  const qc = useQueryClient();
  const start = useMutation({
    mutationFn: () => startLiveRun(versionId),
    onSuccess: async ({ id }) => {
      onMessage({ ok: true, text: LIVE_RUN_TEXT.started(id), id });
      await qc.invalidateQueries({ queryKey: liveRunsKey(versionId) });
    },
    onError: (e) => {
      const detail = errorMessage(e, '');
      onMessage({
        ok: false,
        text: detail ? `${LIVE_RUN_TEXT.startFailed} ${detail}` : LIVE_RUN_TEXT.startFailed,
      });
    },
  });
  return (
    <Button color="teal" onClick={() => start.mutate()} loading={start.isPending}>
      Start Live Run
    </Button>
  );
}

export interface Message {
  ok: boolean;
  text: string;
  id?: string;
}

export function LiveRunMessage({ message }: { message: Message | null }) {
  const [closed, setClosed] = useState<Message | null>(null);
  if (!message || closed === message) return null;
  return (
    <Alert
      color={message.ok ? 'teal' : 'red'}
      role="alert"
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={() => setClosed(message)}
    >
      {message.text}
      {message.id && (
        <>
          {' '}
          <Link to={`/bots/live-runs/${message.id}`}>Open the live run</Link>
        </>
      )}
    </Alert>
  );
}

export function LiveRunsList({ versionId }: { versionId: string }) {
  const runs = useLiveRuns(versionId);
  return (
    <>
      <Title order={3}>Live Runs</Title>
      {runs.data?.length ? (
        <Table striped aria-label="Live runs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>ID</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Account</Table.Th>
              <Table.Th>Market</Table.Th>
              <Table.Th>Started</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {runs.data.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>
                  <Link to={`/bots/live-runs/${r.id}`}>{r.id.slice(0, 8)}</Link>
                </Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLOR[r.status]}>{r.status}</Badge>
                </Table.Td>
                <Table.Td>{r.account_name}</Table.Td>
                <Table.Td>
                  {r.symbols.join(', ')} {r.timeframe}
                </Table.Td>
                <Table.Td>{new Date(r.started_at ?? r.created_at).toLocaleString()}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Group>
          <Text c="dimmed">No live runs yet.</Text>
        </Group>
      )}
    </>
  );
}
