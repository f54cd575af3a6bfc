import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../app/errors';
import { PNL_COLORS } from '../../app/theme';
import { closeTrade, formatLots, formatPrice, TRADE_TEXT } from '../trade/trades.api';
import {
  isActive,
  LIVE_RUN_TEXT,
  liveRunKey,
  stopLiveRun,
  STATUS_COLOR,
  useLiveRun,
  useLiveRunLog,
} from './liveRuns.api';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
const money = (v: number | null) => (v === null ? '—' : v.toFixed(2));
const pnlColor = (v: number | null) => (v === null ? undefined : v >= 0 ? PNL_COLORS.up : PNL_COLORS.down);

/** Live run page (`/bots/live-runs/{runId}`): status, account, P/L, positions, trades, log, stop. */
export function LiveRunPage() {
  const { runId = '' } = useParams();
  const qc = useQueryClient();
  const run = useLiveRun(runId);
  const refresh = () => void qc.invalidateQueries({ queryKey: liveRunKey(runId) });
  const lines = useLiveRunLog(runId, refresh);
  const [error, setError] = useState<string | null>(null);
  const stop = useMutation({
    mutationFn: (close: boolean) => stopLiveRun(runId, close),
    onSuccess: (detail) => qc.setQueryData(liveRunKey(runId), detail),
    onError: (e) => setError(errorMessage(e, LIVE_RUN_TEXT.stopFailed)),
  });
  const close = useMutation({
    mutationFn: (tradeId: string) => closeTrade(tradeId),
    onSuccess: refresh,
    onError: (e) => setError(errorMessage(e, TRADE_TEXT.closeFailed)),
  });
  const logEnd = useRef<HTMLDivElement>(null);
  // Braces: Chromium's scrollIntoView returns a promise, which React would take for a cleanup.
  useEffect(() => {
    void logEnd.current?.scrollIntoView?.({ block: 'nearest' });
  }, [lines.length]);

  const r = run.data;
  if (!r)
    return (
      <Stack gap="lg">
        <Title order={1} size="h2">
          Live Run
        </Title>
        {run.isError ? <Alert color="red">{LIVE_RUN_TEXT.fetchRun}</Alert> : <Loader size="sm" />}
      </Stack>
    );
  const active = isActive(r.status);
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Group>
          <Title order={1} size="h2">
            Live Run
          </Title>
          <Badge color={STATUS_COLOR[r.status]} data-testid="live-run-status">
            {r.status}
          </Badge>
        </Group>
        <Group>
          <Button
            color="red"
            variant="light"
            disabled={!active}
            loading={stop.isPending}
            onClick={() => stop.mutate(false)}
          >
            Stop
          </Button>
          <Button color="red" disabled={!active} loading={stop.isPending} onClick={() => stop.mutate(true)}>
            Stop &amp; close positions
          </Button>
        </Group>
      </Group>
      {error && (
        <Alert
          color="red"
          role="alert"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setError(null)}
        >
          {error}
        </Alert>
      )}
      {r.error_message && (
        <Alert color="red" title="The run failed">
          <Code block>{r.error_message}</Code>
        </Alert>
      )}
      {r.stop_reason && <Alert color="gray">{r.stop_reason}</Alert>}
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
        <Card withBorder>
          <Text size="xs" c="dimmed">
            Bot
          </Text>
          <Text fw={600}>
            <Link to={`/bots/${r.bot_id}/versions/${r.bot_version_id}`}>{r.bot_name}</Link>
          </Text>
        </Card>
        <Card withBorder>
          <Text size="xs" c="dimmed">
            Account
          </Text>
          <Text fw={600}>
            {r.account_name} ({r.account_platform})
          </Text>
          <Text size="xs">
            {r.symbols.join(', ')} {r.timeframe}
          </Text>
        </Card>
        <Card withBorder>
          <Text size="xs" c="dimmed">
            P/L {r.currency ?? ''}
          </Text>
          <Text fw={700} c={pnlColor(r.profit_loss)} data-testid="live-run-pl">
            {money(r.profit_loss)}
          </Text>
          <Text size="xs">
            realised {money(r.realised_pl)} · open {money(r.open_pl)}
          </Text>
        </Card>
        <Card withBorder>
          <Text size="xs" c="dimmed">
            Orders
          </Text>
          <Text fw={600}>
            {r.orders} sent · {r.refused_orders} refused
          </Text>
          <Text size="xs">
            Started {when(r.started_at)} · heartbeat {when(r.last_heartbeat)}
          </Text>
        </Card>
      </SimpleGrid>

      <Title order={3}>Open Positions</Title>
      {r.open_positions.length ? (
        <Table striped aria-label="Open positions of the run">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Instrument</Table.Th>
              <Table.Th>Direction</Table.Th>
              <Table.Th>Lot Size</Table.Th>
              <Table.Th>Entry Price</Table.Th>
              <Table.Th>Stop Loss</Table.Th>
              <Table.Th>Profit Target</Table.Th>
              <Table.Th>Current P/L</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {r.open_positions.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>{p.instrument}</Table.Td>
                <Table.Td>{p.direction}</Table.Td>
                <Table.Td>{formatLots(p.lot_size)}</Table.Td>
                <Table.Td>{formatPrice(p.entry_price)}</Table.Td>
                <Table.Td>{formatPrice(p.stop_loss)}</Table.Td>
                <Table.Td>{formatPrice(p.profit_target)}</Table.Td>
                <Table.Td c={pnlColor(p.current_pl)}>{money(p.current_pl)}</Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    color="red"
                    variant="light"
                    loading={close.isPending && close.variables === p.id}
                    onClick={() => close.mutate(p.id)}
                  >
                    Close
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text c="dimmed">No open positions.</Text>
      )}

      <Title order={3}>Trades</Title>
      {r.trades.length ? (
        <Table striped aria-label="Trades of the run">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Trade</Table.Th>
              <Table.Th>Bar</Table.Th>
              <Table.Th>Instrument</Table.Th>
              <Table.Th>Direction</Table.Th>
              <Table.Th>Lot Size</Table.Th>
              <Table.Th>Entry Price</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>P/L</Table.Th>
              <Table.Th>Reason</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {r.trades.map((t) => (
              <Table.Tr key={t.id}>
                <Table.Td>
                  <Link to={`/trades/history/${t.id}`}>{t.id.slice(0, 8)}</Link>
                </Table.Td>
                <Table.Td>{when(t.bar_time)}</Table.Td>
                <Table.Td>{t.symbol}</Table.Td>
                <Table.Td>{t.direction}</Table.Td>
                <Table.Td>{formatLots(t.lot_size)}</Table.Td>
                <Table.Td>{formatPrice(t.entry_price)}</Table.Td>
                <Table.Td>{t.status}</Table.Td>
                <Table.Td c={pnlColor(t.profit_loss)}>{money(t.profit_loss)}</Table.Td>
                <Table.Td>{t.reason}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text c="dimmed">No trades yet.</Text>
      )}

      <Title order={3}>Log</Title>
      <Card
        withBorder
        p="xs"
        mah={360}
        style={{ overflowY: 'auto' }}
        data-testid="live-run-log"
        role="log"
        aria-label="Live run log"
      >
        {lines.length ? (
          lines.map((l) => (
            <Text
              key={l.seq}
              size="xs"
              ff="monospace"
              c={l.level === 'error' ? 'red' : l.level === 'warn' ? 'orange' : undefined}
            >
              {new Date(l.time).toLocaleTimeString()} {l.message}
            </Text>
          ))
        ) : (
          <Text size="xs" c="dimmed">
            No log lines yet.
          </Text>
        )}
        <div ref={logEnd} />
      </Card>
    </Stack>
  );
}
