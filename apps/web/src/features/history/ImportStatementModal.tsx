import { useState } from 'react';
import {
  Alert,
  Button,
  FileInput,
  Group,
  List,
  Loader,
  Modal,
  Select,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconFileImport } from '@tabler/icons-react';
import { STATEMENT_FORMATS, STATEMENT_TIME_ZONES, type StatementImport } from '@tradedesk/contract';
import { errorMessage } from '../../app/errors';
import { fmtLots, fmtNumber, fmtPrice, fmtTime, pnlColor } from './format';
import { sendStatement } from './statementImport.api';

const ACCEPT =
  '.htm,.html,.csv,.xlsx,text/html,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const STATUS_LABEL = { new: 'New', known: 'Already in history', open: 'Open: not imported' } as const;

function zoneChoices(preview: StatementImport | undefined) {
  const list: Array<{ value: string; label: string }> = STATEMENT_TIME_ZONES.map((z) => ({ ...z }));
  for (const z of [preview?.detected_time_zone, preview?.time_zone])
    if (z && !list.some((c) => c.value === z))
      list.unshift({ value: z, label: z === preview?.detected_time_zone ? `${z} (stated in the file)` : z });
  return list;
}

function Counts({ p }: { p: StatementImport }) {
  const c = p.counts;
  return (
    <List size="sm" spacing={2} aria-label="Statement contents">
      <List.Item>
        {c.trades} closed trades: {c.new_trades} new, {c.known_trades} already in the history
      </List.Item>
      <List.Item>{c.deals} deals</List.Item>
      {c.open_positions > 0 && <List.Item>{c.open_positions} open positions (not imported)</List.Item>}
      <List.Item>
        {c.deposits} deposits ({fmtNumber(p.deposits_total, 2)}), {c.withdrawals} withdrawals (
        {fmtNumber(p.withdrawals_total, 2)}): not trades
      </List.Item>
      <List.Item>
        From {fmtTime(p.from)} to {fmtTime(p.to)}
      </List.Item>
    </List>
  );
}

function FirstRows({ p }: { p: StatementImport }) {
  if (!p.rows.length) return null;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped withTableBorder fz="xs" className="num" aria-label="First rows of the statement">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Instrument</Table.Th>
            <Table.Th>Direction</Table.Th>
            <Table.Th>Lots</Table.Th>
            <Table.Th>Entry</Table.Th>
            <Table.Th>Opened</Table.Th>
            <Table.Th>Closed</Table.Th>
            <Table.Th>P/L</Table.Th>
            <Table.Th>Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {p.rows.map((r) => (
            <Table.Tr key={r.position_id}>
              <Table.Td>
                {r.instrument}
                {r.statement_symbol !== r.instrument && (
                  <Text span size="xs" c="dimmed">
                    {' '}
                    ({r.statement_symbol})
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{r.direction}</Table.Td>
              <Table.Td>{fmtLots(r.lot_size)}</Table.Td>
              <Table.Td>{fmtPrice(r.entry_price)}</Table.Td>
              <Table.Td>{fmtTime(r.opened_at)}</Table.Td>
              <Table.Td>{fmtTime(r.closed_at)}</Table.Td>
              <Table.Td c={pnlColor(r.profit_loss)}>{fmtNumber(r.profit_loss, 2)}</Table.Td>
              <Table.Td>{STATUS_LABEL[r.status]}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * Import statement: choose a file, read the preview (counts, range, first rows, warnings) in the
 * chosen time zone, confirm, see what was written. Nothing is written before the confirmation.
 */
export function ImportStatementModal({
  accountId,
  opened,
  onClose,
}: {
  accountId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const qc = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [zone, setZone] = useState<string | undefined>(undefined);
  const preview = useMutation({
    mutationFn: (v: { file: File; zone?: string }) =>
      sendStatement(accountId, v.file, { dryRun: true, timeZone: v.zone }),
  });
  const confirm = useMutation({
    mutationFn: (v: { file: File; zone: string }) =>
      sendStatement(accountId, v.file, { dryRun: false, timeZone: v.zone }),
    onSuccess: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: ['history', accountId] }),
        qc.invalidateQueries({ queryKey: ['reports'] }),
      ]);
    },
  });
  const close = () => {
    setFile(null);
    setZone(undefined);
    preview.reset();
    confirm.reset();
    onClose();
  };
  const p = preview.data;
  const done = confirm.data?.imported;

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Import statement"
      size="xl"
      closeButtonProps={{ 'aria-label': 'Close the import' }}
    >
      <Stack gap="sm">
        {done ? (
          <>
            <Alert color="teal" variant="light" title="Statement imported" role="status">
              {done.new_trades} new trades and {done.new_deals} deals imported
              {done.updated_trades ? `, ${done.updated_trades} trades completed` : ''}.
              {done.new_trades === 0 && done.new_deals === 0 && ' Everything was already in the history.'}
            </Alert>
            <Group justify="flex-end">
              <Button onClick={close}>Close</Button>
            </Group>
          </>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              Accepted: {Object.values(STATEMENT_FORMATS).join('; ')}.
            </Text>
            <FileInput
              label="Statement file"
              placeholder="Choose a file"
              accept={ACCEPT}
              value={file}
              clearable
              clearButtonProps={{ 'aria-label': 'Clear the file' }}
              leftSection={<IconFileImport size={16} />}
              onChange={(f) => {
                setFile(f);
                setZone(undefined);
                confirm.reset();
                if (f) preview.mutate({ file: f });
                else preview.reset();
              }}
            />
            {preview.isPending && (
              <Group gap="xs" role="status">
                <Loader size="xs" />
                <Text size="sm">Reading the statement…</Text>
              </Group>
            )}
            {preview.isError && (
              <Alert color="red" variant="light" role="alert">
                {errorMessage(preview.error, 'The statement could not be read. Please try again.')}
              </Alert>
            )}
            {p && file && (
              <Stack gap="sm" aria-label="Statement preview">
                <Text size="sm" fw={600}>
                  {p.format_label}
                </Text>
                <Select
                  label="Time zone of the statement's times"
                  description="The broker server's clock; times are stored in UTC."
                  data={zoneChoices(p)}
                  value={zone ?? p.time_zone}
                  allowDeselect={false}
                  onChange={(v) => {
                    if (!v) return;
                    setZone(v);
                    preview.mutate({ file, zone: v });
                  }}
                />
                <Counts p={p} />
                {p.warnings.length > 0 && (
                  <Alert
                    color="yellow"
                    variant="light"
                    title={
                      // The alert's own yellow title is too faint on its background (WCAG AA).
                      <Text span fw={700} size="sm" c="var(--mantine-color-text)">
                        Warnings
                      </Text>
                    }
                  >
                    <List size="sm">
                      {p.warnings.map((w) => (
                        <List.Item key={w}>{w}</List.Item>
                      ))}
                    </List>
                  </Alert>
                )}
                <FirstRows p={p} />
                {confirm.isError && (
                  <Alert color="red" variant="light" role="alert">
                    {errorMessage(confirm.error, 'The import failed. Please try again.')}
                  </Alert>
                )}
                <Group justify="flex-end">
                  <Button variant="default" onClick={close}>
                    Cancel
                  </Button>
                  <Button
                    loading={confirm.isPending}
                    disabled={preview.isPending || p.counts.new_trades === 0}
                    onClick={() => confirm.mutate({ file, zone: zone ?? p.time_zone })}
                  >
                    {p.counts.new_trades === 0
                      ? 'Nothing new to import'
                      : `Import ${p.counts.new_trades} trades`}
                  </Button>
                </Group>
              </Stack>
            )}
          </>
        )}
      </Stack>
    </Modal>
  );
}
