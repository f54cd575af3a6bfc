import { useState, type ReactNode } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Collapse,
  Group,
  Image,
  Loader,
  SimpleGrid,
  Stack,
  Table,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconNotebook } from '@tabler/icons-react';
import type { JournalEntry } from '@tradedesk/contract';
import { JournalTradeModal } from '../journal/JournalTradeModal';
import { useTradeJournals } from '../journal/journal.api';
import { fmtLots, fmtNumber, fmtPrice, fmtText, fmtTime, NA, pnlColor } from './format';
import { ImageOverlay } from './ImageOverlay';
import { ClosedParts } from './ClosedParts';
import { SnapshotStatus } from '../snapshots/SnapshotStatus';
import { usePendingSnapshots, type PendingSnapshot } from '../snapshots/snapshotConfigs.api';

export const HISTORY_TEXT = {
  noOrders: 'No order history available for this trade.',
  noJournals: 'No journal entries for this trade.',
  journalsFailed: 'Failed to fetch journals',
} as const;

export interface OrderRow {
  id: string;
  filled_at: string | null;
  order_type: string | null;
  direction: string | null;
  filled_price: number | null;
  filled_volume: number | null;
  /** IN opens, OUT closes (fully or partly). */
  entry?: 'IN' | 'OUT' | null;
  profit: number | null;
  commission: number | null;
  deal_reason: string | null;
}

export interface TradeForDetail {
  id: string;
  instrument: string;
  direction: string;
  lot_size: number | null;
  entry_price: number | null;
  stop_loss: number | null;
  actual_profit_loss: number | null;
  reason: string | null;
  rr_ratio: number | null;
  trade_status: string;
  closed_at: string | null;
  created_at: string;
  order_history?: OrderRow[];
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text component="div" size="sm" fw={500}>
        {children}
      </Text>
    </Stack>
  );
}

/** A section header that opens and closes its content, usable with the keyboard. */
function Section({
  title,
  open,
  onToggle,
  children,
}: {
  title: string;
  open: boolean;
  onToggle: () => void;
  children: ReactNode;
}) {
  return (
    <Stack gap="xs">
      <UnstyledButton onClick={onToggle} aria-expanded={open}>
        <Group gap={6}>
          {open ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
          <Text fw={600}>{title}</Text>
        </Group>
      </UnstyledButton>
      <Collapse expanded={open}>{children}</Collapse>
    </Stack>
  );
}

function OrderHistory({ orders }: { orders: OrderRow[] }) {
  // Only orders that filled tell what happened (spec).
  const filled = orders.filter((o) => !!o.filled_at);
  if (filled.length === 0)
    return (
      <Text c="dimmed" size="sm">
        {HISTORY_TEXT.noOrders}
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped withTableBorder aria-label="Order history" className="num">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Filled At</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Direction</Table.Th>
            <Table.Th>Price</Table.Th>
            <Table.Th>Volume</Table.Th>
            <Table.Th>Profit</Table.Th>
            <Table.Th>Commission</Table.Th>
            <Table.Th>Reason</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {filled.map((o) => (
            <Table.Tr key={o.id}>
              <Table.Td>{fmtTime(o.filled_at)}</Table.Td>
              <Table.Td>{fmtText(o.order_type)}</Table.Td>
              <Table.Td>{fmtText(o.direction)}</Table.Td>
              <Table.Td>{fmtPrice(o.filled_price)}</Table.Td>
              <Table.Td>{fmtLots(o.filled_volume)}</Table.Td>
              <Table.Td c={pnlColor(o.profit)}>{fmtNumber(o.profit, 2)}</Table.Td>
              <Table.Td>{fmtNumber(o.commission, 2)}</Table.Td>
              <Table.Td>{fmtText(o.deal_reason)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function JournalCard({
  j,
  onOpenImage,
  snapshots,
  onSnapshotsDone,
}: {
  j: JournalEntry;
  onOpenImage: (src: string, alt: string) => void;
  /** Snapshot tasks of this entry asked in this session: "generating" until their images arrive. */
  snapshots: PendingSnapshot[];
  onSnapshotsDone: () => void;
}) {
  return (
    <Card withBorder padding="sm" aria-label={`Journal entry ${j.action}`}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>{fmtText(j.action)}</Text>
          <Text size="xs" c="dimmed">
            {fmtTime(j.created_at)}
          </Text>
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
          <Field label="Timeframe">{fmtText(j.trade_timeframe)}</Field>
          <Field label="Strategy Tag">{fmtText(j.strategy_tag)}</Field>
          <Field label="Emotional State">{fmtText(j.emotional_state)}</Field>
          <Field label="Market Condition">{fmtText(j.market_condition)}</Field>
        </SimpleGrid>
        <Field label="Reason">{fmtText(j.reason)}</Field>
        <Field label="Details">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {fmtText(j.details)}
          </Text>
        </Field>
        {snapshots.map((p) => (
          <SnapshotStatus key={p.taskId} taskId={p.taskId} onDone={onSnapshotsDone} />
        ))}
        {j.attachments.length > 0 && (
          <Group gap="xs">
            {j.attachments.map((a, i) => {
              const alt = `Attachment ${i + 1} of ${j.action || 'journal entry'}`;
              return (
                <UnstyledButton
                  key={a.id}
                  onClick={() => onOpenImage(a.file, alt)}
                  aria-label={`Enlarge ${alt}`}
                >
                  <Image src={a.file} alt={alt} w={96} h={72} fit="cover" radius="sm" />
                </UnstyledButton>
              );
            })}
          </Group>
        )}
      </Stack>
    </Card>
  );
}

function TradeJournals({ tradeId, symbol }: { tradeId: string; symbol: string }) {
  const journals = useTradeJournals(tradeId);
  const pending = usePendingSnapshots(tradeId);
  const [open, setOpen] = useState(false);
  const [adding, setAdding] = useState(false);
  const [image, setImage] = useState<{ src: string; alt: string } | null>(null);
  const list = journals.data?.entries ?? [];
  const count = journals.isSuccess ? ` (${list.length}${journals.data.more ? '+' : ''})` : '';
  return (
    <>
      <Section title={`Trade Journals${count}`} open={open} onToggle={() => setOpen((o) => !o)}>
        <Stack gap="sm">
          {journals.isLoading ? (
            <Loader size="sm" />
          ) : journals.isError ? (
            <Alert color="red" variant="light">
              {HISTORY_TEXT.journalsFailed}
            </Alert>
          ) : list.length === 0 ? (
            <Text c="dimmed" size="sm">
              {HISTORY_TEXT.noJournals}
            </Text>
          ) : (
            list.map((j) => (
              <JournalCard
                key={j.id}
                j={j}
                onOpenImage={(src, alt) => setImage({ src, alt })}
                snapshots={pending.filter((p) => p.journalId === j.id)}
                onSnapshotsDone={() => void journals.refetch()}
              />
            ))
          )}
          <Group>
            {journals.hasNextPage && (
              <Button
                size="xs"
                variant="default"
                loading={journals.isFetchingNextPage}
                onClick={() => void journals.fetchNextPage()}
              >
                Show older entries
              </Button>
            )}
            <Button
              size="xs"
              variant="light"
              leftSection={<IconNotebook size={14} />}
              onClick={() => setAdding(true)}
            >
              Add Journal Entry
            </Button>
          </Group>
        </Stack>
      </Section>
      <JournalTradeModal
        opened={adding}
        tradeId={tradeId}
        symbol={symbol}
        defaultAction="Reviewed Trade"
        onClose={() => setAdding(false)}
        onSubmitted={() => {
          setOpen(true);
          void journals.refetch();
        }}
      />
      <ImageOverlay src={image?.src ?? null} alt={image?.alt ?? ''} onClose={() => setImage(null)} />
    </>
  );
}

/** Everything about one trade: its fields, its fills and its journal (spec: trade detail panel). */
export function TradeDetailPanel({ trade }: { trade: TradeForDetail }) {
  const [ordersOpen, setOrdersOpen] = useState(false);
  const closed = trade.trade_status === 'closed';
  return (
    <Stack gap="md" aria-label={`Details of ${trade.instrument} trade`}>
      <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="sm">
        <Field label="Instrument">{fmtText(trade.instrument)}</Field>
        <Field label="Direction">
          <Text component="span" fw={700} c={trade.direction === 'BUY' ? 'teal.7' : 'red.7'}>
            {fmtText(trade.direction)}
          </Text>
        </Field>
        {/* The lots it opened with; partial closes are listed under the fields. */}
        <Field label="Lot Size (opened)">{fmtLots(trade.lot_size)}</Field>
        <Field label="Entry Price">{fmtPrice(trade.entry_price)}</Field>
        <Field label="Stop Loss">{fmtPrice(trade.stop_loss)}</Field>
        <Field label="Status">
          <Badge color={closed ? 'gray' : 'yellow'} variant="light">
            {fmtText(trade.trade_status)}
          </Badge>
        </Field>
        <Field label="P/L">
          <Text component="span" fw={700} c={pnlColor(trade.actual_profit_loss)} className="num">
            {fmtNumber(trade.actual_profit_loss, 2)}
          </Text>
        </Field>
        <Field label="RR Ratio">{fmtNumber(trade.rr_ratio, 2)}</Field>
        <Field label="Created">{fmtTime(trade.created_at)}</Field>
        <Field label="Closed">{trade.closed_at ? fmtTime(trade.closed_at) : NA}</Field>
      </SimpleGrid>
      <Field label="Reason">{fmtText(trade.reason)}</Field>
      <ClosedParts lotSize={trade.lot_size} orders={trade.order_history} />
      <Section title="Order History" open={ordersOpen} onToggle={() => setOrdersOpen((o) => !o)}>
        <OrderHistory orders={trade.order_history ?? []} />
      </Section>
      <TradeJournals tradeId={trade.id} symbol={trade.instrument} />
    </Stack>
  );
}
