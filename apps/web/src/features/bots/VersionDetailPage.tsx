import { z } from 'zod';
import { lazy, Suspense, useState } from 'react';
import { Alert, Badge, Button, Card, Code, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../app/api';
import { BOT_TEXT, useConfigs, useRuns, useVersion } from './bots.api';
import { LaunchBacktestModal } from './LaunchBacktestModal';
import { LiveRunMessage, LiveRunsList, StartLiveRunButton, type Message } from './LiveRunsSection';

const PythonEditor = lazy(() => import('./PythonEditor'));

/** Version detail (`/bots/{botId}/versions/{versionId}`): code, configs, runs, launch. */
export function VersionDetailPage() {
  const { botId = '', versionId = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const version = useVersion(versionId);
  const configs = useConfigs(versionId);
  const runs = useRuns(versionId);
  const [launching, setLaunching] = useState<string | null>(null);
  const [liveMessage, setLiveMessage] = useState<Message | null>(null);
  const remove = useMutation({
    mutationFn: () => api.delete(`/bots/versions/${versionId}/`, { schema: z.null() }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['bots', botId, 'versions'] });
      void navigate(`/bots/${botId}`);
    },
  });
  if (version.isError || version.isPending)
    return (
      <Stack gap="lg">
        <Title order={1} size="h2">
          Version
        </Title>
        {version.isError ? (
          <Alert color="red">
            {BOT_TEXT.loadVersion} {BOT_TEXT.deletedVersionNote}
          </Alert>
        ) : (
          <Loader size="sm" />
        )}
      </Stack>
    );
  const v = version.data;
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Version Details
        </Title>
        <Group>
          <Button component={Link} to={`/bots/${botId}/versions/${versionId}/backtest-configs/new`}>
            Configure New Backtest
          </Button>
          <StartLiveRunButton versionId={versionId} onMessage={setLiveMessage} />
          <Button color="red" variant="light" onClick={() => remove.mutate()} loading={remove.isPending}>
            Delete Version
          </Button>
        </Group>
      </Group>
      {remove.isError && <Alert color="red">{BOT_TEXT.deleteVersion}</Alert>}
      <LiveRunMessage message={liveMessage} />
      <Card withBorder>
        <Text size="sm">
          Code hash: <Code>{v.code_hash}</Code>
        </Text>
        <Text size="sm">Params: {JSON.stringify(v.params)}</Text>
        <Text size="sm">Notes: {v.notes || '—'}</Text>
        <Text size="sm">Created: {new Date(v.created_at).toLocaleString()}</Text>
      </Card>
      <Suspense fallback={<Loader size="sm" />}>
        <PythonEditor value={v.strategy_file_content} readOnly label="Strategy code" />
      </Suspense>
      <Title order={3}>Backtest Configurations</Title>
      {configs.data?.length ? (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Label</Table.Th>
              <Table.Th>Slippage ms</Table.Th>
              <Table.Th>Slippage R</Table.Th>
              <Table.Th>Risk JSON</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {configs.data.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>{c.label}</Table.Td>
                <Table.Td>{c.slippage_ms}</Table.Td>
                <Table.Td>{c.slippage_r}</Table.Td>
                <Table.Td>
                  <Code>{JSON.stringify(c.risk_json)}</Code>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      variant="light"
                      component={Link}
                      to={`/bots/${botId}/versions/${versionId}/backtest-configs/${c.id}`}
                    >
                      View/Edit Config
                    </Button>
                    <Button size="xs" onClick={() => setLaunching(c.id)}>
                      Launch Backtest
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text c="dimmed">No backtest configurations yet.</Text>
      )}
      <Title order={3}>Backtest Runs</Title>
      {runs.data?.length ? (
        <Table striped>
          <Table.Tbody>
            {runs.data.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>
                  <Link to={`/backtest-runs/${r.id}`}>{r.id.slice(0, 8)}</Link>
                </Table.Td>
                <Table.Td>
                  <Badge
                    color={r.status === 'COMPLETED' ? 'green' : r.status === 'FAILED' ? 'red' : 'yellow'}
                  >
                    {r.status}
                  </Badge>
                </Table.Td>
                <Table.Td>{r.backtest_config_details.label}</Table.Td>
                <Table.Td>
                  {new Date(r.data_window_start).toLocaleDateString()} –{' '}
                  {new Date(r.data_window_end).toLocaleDateString()}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text c="dimmed">No backtest runs yet.</Text>
      )}
      <LiveRunsList versionId={versionId} />
      <LaunchBacktestModal versionId={versionId} configId={launching} onClose={() => setLaunching(null)} />
    </Stack>
  );
}
