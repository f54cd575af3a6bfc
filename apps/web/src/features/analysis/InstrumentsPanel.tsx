import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  ScrollArea,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ANALYSIS_MESSAGES, type InstrumentDataStatus } from '@tradedesk/contract';
import { errorMessage } from '../../app/errors';
import { addInstrument, INSTRUMENTS_KEY, useInstruments } from './analysis.api';
import { ANALYSIS_TEXT, POLL } from './analysis.texts';

const STATUS_COLOR: Record<InstrumentDataStatus, string> = {
  PENDING_INITIAL_DOWNLOAD: 'gray',
  AVAILABLE: 'teal',
  UPDATING: 'blue',
  ERROR: 'red',
};

/**
 * After an instrument is added the list refreshes after 2 s, then every 10 s up to 5 more times
 * (spec sections 5 and 9), so the download's progress shows without a reload.
 */
function useRefreshAfterAdd() {
  const qc = useQueryClient();
  const timers = useRef<number[]>([]);
  useEffect(() => () => timers.current.forEach((t) => window.clearTimeout(t)), []);
  return () => {
    timers.current.forEach((t) => window.clearTimeout(t));
    const refresh = () => void qc.invalidateQueries({ queryKey: INSTRUMENTS_KEY });
    timers.current = [POLL.instrumentsFirstMs];
    for (let i = 1; i <= POLL.instrumentsMoreTimes; i++)
      timers.current.push(POLL.instrumentsFirstMs + i * POLL.instrumentsEveryMs);
    timers.current = timers.current.map((ms) => window.setTimeout(refresh, ms));
  };
}

export function InstrumentsPanel() {
  const qc = useQueryClient();
  const instruments = useInstruments();
  const [symbol, setSymbol] = useState('');
  const [error, setError] = useState<string | null>(null);
  const scheduleRefresh = useRefreshAfterAdd();
  const add = useMutation({
    mutationFn: addInstrument,
    onSuccess: async () => {
      setSymbol('');
      setError(null);
      await qc.invalidateQueries({ queryKey: INSTRUMENTS_KEY });
      scheduleRefresh();
    },
    onError: (err) =>
      setError(ANALYSIS_TEXT.addInstrumentFailed(errorMessage(err, ANALYSIS_TEXT.addInstrument))),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const s = symbol.trim().toUpperCase();
    if (!s) return setError(ANALYSIS_MESSAGES.symbolRequired);
    setError(null);
    add.mutate(s);
  }

  const rows = instruments.data ?? [];
  return (
    <Card withBorder padding="md">
      <Stack gap="sm">
        <Title order={4}>Instruments</Title>
        <form onSubmit={submit} noValidate aria-label="Add instrument">
          <Group align="flex-end" gap="sm">
            <TextInput
              label="Instrument symbol"
              placeholder="EURUSD"
              value={symbol}
              onChange={(e) => setSymbol(e.currentTarget.value)}
            />
            <Button type="submit" loading={add.isPending}>
              Add Instrument
            </Button>
          </Group>
        </form>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        {instruments.isLoading ? (
          <Loader size="sm" />
        ) : instruments.isError ? (
          <Alert color="red" variant="light">
            {ANALYSIS_TEXT.loadInstrumentsFailed}
          </Alert>
        ) : rows.length === 0 ? (
          <Text c="dimmed" size="sm">
            No instruments yet: add one to download its history.
          </Text>
        ) : (
          // Spec section 9: the list scrolls at a height of 96 units (24rem).
          <ScrollArea.Autosize mah="24rem">
            <Table striped aria-label="Available instruments">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Symbol</Table.Th>
                  <Table.Th>Exchange</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Base Timeframe</Table.Th>
                  <Table.Th>Last Updated</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((i) => (
                  <Table.Tr key={i.symbol} data-testid={`instrument-${i.symbol}`}>
                    <Table.Td>{i.symbol}</Table.Td>
                    <Table.Td>{i.exchange}</Table.Td>
                    <Table.Td>
                      <Badge
                        color={STATUS_COLOR[i.data_status]}
                        variant="light"
                        title={i.error_message ?? undefined}
                      >
                        {i.data_status}
                      </Badge>
                      {i.data_status !== 'AVAILABLE' && (
                        <Text size="xs" c="dimmed">
                          {ANALYSIS_TEXT.dataNotReady}
                        </Text>
                      )}
                      {i.data_status === 'ERROR' && i.error_message && (
                        <Text size="xs" c="red">
                          {i.error_message}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{i.base_timeframe}</Table.Td>
                    <Table.Td>{i.last_updated ? new Date(i.last_updated).toLocaleString() : 'N/A'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        )}
      </Stack>
    </Card>
  );
}
