import { useState } from 'react';
import { Alert, Button, Card, Group, Loader, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { useId, useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../app/errors';
import { notifications } from '../../app/notify';
import { PNL_COLORS } from '../../app/theme';
import { actionFailure, formatLots, formatPrice, openPositionsKey } from '../trade/trades.api';
import {
  cancelPendingOrder,
  PENDING_TEXT,
  pendingOrdersKey,
  usePendingOrders,
  type PendingOrder,
} from './pendingOrders.api';
import { shortTime } from './positionFormat';
import classes from './PositionsTable.module.css';

const COLUMNS = ['Instrument', 'Direction', 'Lot Size', 'Limit Price', 'SL / TP', 'Created At', 'Actions'];

const created = (o: PendingOrder) => {
  const t = shortTime(o.created_at);
  return { text: `${t.day} ${t.time}`.trim(), full: t.full };
};
const stops = (o: PendingOrder) => `${formatPrice(o.stop_loss)} / ${formatPrice(o.profit_target)}`;
const describe = (o: PendingOrder) =>
  `${o.direction} ${formatLots(o.lot_size)} ${o.instrument} limit at ${formatPrice(o.limit_price)}`;

/**
 * The account's pending limit orders as its broker holds them, each with Cancel (confirmed, then
 * Cancelling... until the broker answered). A table from 768 px up, a card per order below.
 */
export function PendingOrders({ accountId }: { accountId: string | null }) {
  const qc = useQueryClient();
  const titleId = useId();
  const phone = useMediaQuery('(max-width: 47.99em)');
  const orders = usePendingOrders(accountId);
  const rows = orders.data ?? [];
  const [cancelling, setCancelling] = useState<Set<string>>(new Set());

  function confirmCancel(o: PendingOrder & { id: string }) {
    modals.openConfirmModal({
      title: 'Cancel order',
      children: <Text size="sm">Cancel the {describe(o)}?</Text>,
      labels: { confirm: 'Cancel Order', cancel: 'Keep Order' },
      confirmProps: { color: 'red' },
      onConfirm: () => void runCancel(o.id),
    });
  }

  async function runCancel(id: string) {
    setCancelling((s) => new Set(s).add(id));
    try {
      const res = await cancelPendingOrder(id);
      notifications.show({ color: 'teal', message: res.message });
    } catch (err) {
      notifications.show({
        color: 'red',
        title: PENDING_TEXT.cancelFailed,
        message: actionFailure(err, PENDING_TEXT.cancelFailed),
      });
    } finally {
      // A refused cancel may mean the order filled meanwhile: both lists are read again either way.
      await Promise.all([
        qc.invalidateQueries({ queryKey: pendingOrdersKey(accountId ?? '') }),
        qc.invalidateQueries({ queryKey: openPositionsKey(accountId ?? '') }),
      ]);
      setCancelling((s) => {
        const next = new Set(s);
        next.delete(id);
        return next;
      });
    }
  }

  function action(o: PendingOrder) {
    if (o.id === null)
      return (
        <Text fz="xs" c="dimmed">
          {PENDING_TEXT.outside}
        </Text>
      );
    const busy = cancelling.has(o.id);
    const own = { ...o, id: o.id };
    return (
      <Button
        size="compact-xs"
        color="red"
        variant="light"
        loading={busy}
        disabled={busy}
        onClick={() => confirmCancel(own)}
        aria-label={busy ? PENDING_TEXT.cancelling : `Cancel ${o.instrument} order`}
      >
        Cancel
      </Button>
    );
  }

  const direction = (o: PendingOrder) => (
    <Text span fz="xs" fw={600} c={o.direction === 'BUY' ? PNL_COLORS.up : PNL_COLORS.down}>
      {o.direction}
    </Text>
  );

  return (
    <Card withBorder padding="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Title order={2} size="h3" id={titleId}>
          {PENDING_TEXT.title}
        </Title>
        {orders.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(orders.error, PENDING_TEXT.fetchFailed)}
          </Alert>
        )}
        {orders.isLoading ? (
          <Group justify="center" p="md">
            <Loader size="sm" aria-label="Loading pending orders" />
          </Group>
        ) : rows.length === 0 && !orders.isError ? (
          <Text c="dimmed" ta="center" p="md">
            {PENDING_TEXT.empty}
          </Text>
        ) : rows.length === 0 ? null : phone ? (
          <Stack gap="sm" role="list" aria-label="Pending orders">
            {rows.map((o) => (
              <Card key={o.order_id} withBorder padding="sm" role="listitem" data-order-id={o.order_id}>
                <Group justify="space-between" wrap="nowrap">
                  <Text fw={700}>
                    {o.instrument} {direction(o)} {formatLots(o.lot_size)}
                  </Text>
                  {action(o)}
                </Group>
                <Text fz="sm">Limit {formatPrice(o.limit_price)}</Text>
                <Text fz="xs" c="dimmed">
                  SL / TP {stops(o)} · {created(o).text}
                </Text>
              </Card>
            ))}
          </Stack>
        ) : (
          <ScrollArea type="auto">
            <Table
              className={classes.table}
              aria-label="Pending orders"
              highlightOnHover
              fz="xs"
              horizontalSpacing={6}
              verticalSpacing={4}
            >
              <Table.Thead>
                <Table.Tr>
                  {COLUMNS.map((c) => (
                    <Table.Th key={c}>{c}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((o) => (
                  <Table.Tr key={o.order_id} data-order-id={o.order_id}>
                    <Table.Td fw={600}>{o.instrument}</Table.Td>
                    <Table.Td>{direction(o)}</Table.Td>
                    <Table.Td className={classes.num}>{formatLots(o.lot_size)}</Table.Td>
                    <Table.Td className={classes.num}>{formatPrice(o.limit_price)}</Table.Td>
                    <Table.Td className={classes.num}>{stops(o)}</Table.Td>
                    <Table.Td title={created(o).full}>{created(o).text}</Table.Td>
                    <Table.Td>{action(o)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
      </Stack>
    </Card>
  );
}
