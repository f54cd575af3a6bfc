import { lazy, Suspense, useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  Menu,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '../../app/notify';
import { IconChevronDown, IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { currencyDecimals, sumMoney } from '@tradedesk/domain';
import { errorMessage } from '../../app/errors';
import { useAccounts } from '../accounts/accounts.api';
import {
  actionFailure,
  closeTrade,
  formatLots,
  formatPrice,
  openPositionsKey,
  TRADE_TEXT,
  useOpenPositions,
  type OpenPosition,
} from '../trade/trades.api';

const COLUMNS = [
  'Position ID',
  'Instrument',
  'Direction',
  'Lot Size',
  'Entry Price',
  'Stop Loss',
  'Profit Target',
  'RR Ratio',
  'Current P/L',
  'Created At',
  'Actions',
] as const;

type Action = 'sl' | 'tp' | 'partial';

// The order editor and the position editors are loaded when first opened, not with the dashboard.
const PlaceTradeModal = lazy(() =>
  import('../trade/PlaceTradeModal').then((m) => ({ default: m.PlaceTradeModal })),
);
const UpdateStopLossModal = lazy(() =>
  import('./PositionModals').then((m) => ({ default: m.UpdateStopLossModal })),
);
const UpdateTakeProfitModal = lazy(() =>
  import('./PositionModals').then((m) => ({ default: m.UpdateTakeProfitModal })),
);
const PartialCloseModal = lazy(() =>
  import('./PositionModals').then((m) => ({ default: m.PartialCloseModal })),
);

export function DashboardPage() {
  const qc = useQueryClient();
  const accounts = useAccounts();
  const [accountId, setAccountId] = useState<string | null>(null);
  const [tradeOpen, setTradeOpen] = useState(false);
  const [closing, setClosing] = useState<Set<string>>(new Set());
  const [action, setAction] = useState<{ kind: Action; position: OpenPosition } | null>(null);

  useEffect(() => {
    const list = accounts.data ?? [];
    if (list.length && (!accountId || !list.some((a) => a.id === accountId))) setAccountId(list[0]!.id);
  }, [accounts.data, accountId]);

  const positions = useOpenPositions(accountId);
  const rows = positions.data ?? [];
  const refresh = () => {
    if (accountId) void qc.invalidateQueries({ queryKey: openPositionsKey(accountId) });
  };
  const currency = accounts.data?.find((a) => a.id === accountId)?.currency ?? 'USD';
  const decimals = currencyDecimals(currency);
  const money = (v: number) => v.toFixed(decimals);
  const totalPl = sumMoney(
    rows.map((p) => p.current_pl ?? 0),
    decimals,
  );

  function confirmClose(p: OpenPosition) {
    modals.openConfirmModal({
      title: 'Close trade',
      children: (
        <Text size="sm">
          Close {p.direction} {formatLots(p.lot_size)} {p.instrument} at the market price?
        </Text>
      ),
      labels: { confirm: 'Close Trade', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => void runClose(p),
    });
  }

  async function runClose(p: OpenPosition) {
    setClosing((s) => new Set(s).add(p.id));
    try {
      await closeTrade(p.id);
      notifications.show({ color: 'teal', message: TRADE_TEXT.closed });
      await qc.invalidateQueries({ queryKey: openPositionsKey(accountId ?? '') });
    } catch (err) {
      const detail = actionFailure(err, '');
      notifications.show({
        color: 'red',
        title: TRADE_TEXT.closeFailed,
        message: detail || TRADE_TEXT.closeFailed,
      });
    } finally {
      setClosing((s) => {
        const next = new Set(s);
        next.delete(p.id);
        return next;
      });
    }
  }

  const accountOptions = (accounts.data ?? []).map((a) => ({
    value: a.id,
    label: `${a.name} (${a.platform})`,
  }));

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Overall Stats (Per Account)
      </Title>
      <Group align="flex-end" justify="space-between" wrap="wrap">
        <Select
          label="Account"
          placeholder={accounts.isLoading ? 'Loading accounts…' : 'Select an account'}
          data={accountOptions}
          value={accountId}
          onChange={setAccountId}
          allowDeselect={false}
          w={280}
          error={accounts.isError ? errorMessage(accounts.error, 'Failed to fetch accounts') : undefined}
        />
        <Button leftSection={<IconPlus size={16} />} onClick={() => setTradeOpen(true)} disabled={!accountId}>
          Open a Trade
        </Button>
      </Group>

      <Card withBorder padding="md">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={3}>Open Positions</Title>
            <Text fw={600} aria-live="polite">
              Total P/L:{' '}
              <Text span fw={700} c={totalPl >= 0 ? 'teal.7' : 'red.7'} data-testid="total-pl">
                {money(totalPl)}
              </Text>
            </Text>
          </Group>
          {positions.isError && (
            <Alert color="red" variant="light" role="alert">
              {errorMessage(positions.error, TRADE_TEXT.fetchPositionsFailed)}
            </Alert>
          )}
          {positions.isLoading ? (
            <Group justify="center" p="md">
              <Loader size="sm" aria-label="Loading open positions" />
            </Group>
          ) : rows.length === 0 && !positions.isError ? (
            <Text c="dimmed" ta="center" p="md">
              {TRADE_TEXT.noPositions}
            </Text>
          ) : rows.length > 0 ? (
            <ScrollArea>
              <Table
                striped
                highlightOnHover
                aria-label="Open positions"
                miw={940}
                fz="sm"
                horizontalSpacing="xs"
                style={{ whiteSpace: 'nowrap' }}
              >
                <Table.Thead>
                  <Table.Tr>
                    {COLUMNS.map((c) => (
                      <Table.Th key={c}>{c}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((p, i) => {
                    const isClosing = closing.has(p.id);
                    const upward = i >= rows.length - 2;
                    const pl = p.current_pl;
                    return (
                      <Table.Tr key={p.id} data-position-id={p.id}>
                        <Table.Td title={String(p.position_id ?? p.id)}>
                          {String(p.position_id ?? p.id).slice(0, 8)}
                        </Table.Td>
                        <Table.Td>{p.instrument}</Table.Td>
                        <Table.Td>
                          <Text span c={p.direction === 'BUY' ? 'teal.7' : 'red.7'} fw={600} size="sm">
                            {p.direction}
                          </Text>
                        </Table.Td>
                        <Table.Td>{formatLots(p.lot_size)}</Table.Td>
                        <Table.Td>{formatPrice(p.entry_price)}</Table.Td>
                        <Table.Td>{formatPrice(p.stop_loss)}</Table.Td>
                        <Table.Td>{formatPrice(p.profit_target)}</Table.Td>
                        <Table.Td>{p.rr_ratio === null ? '—' : p.rr_ratio.toFixed(2)}</Table.Td>
                        <Table.Td>
                          {pl === null ? (
                            '—'
                          ) : (
                            <Text span size="sm" fw={600} c={pl >= 0 ? 'teal.7' : 'red.7'}>
                              {money(pl)}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>
                          {p.created_at ? dayjs(p.created_at).format('YYYY-MM-DD HH:mm') : '—'}
                        </Table.Td>
                        <Table.Td>
                          <Group gap={6} wrap="nowrap">
                            <Button
                              size="xs"
                              color="red"
                              variant="light"
                              disabled={isClosing}
                              onClick={() => confirmClose(p)}
                              aria-label={isClosing ? TRADE_TEXT.closing : `Close ${p.instrument}`}
                            >
                              {isClosing ? TRADE_TEXT.closing : 'Close'}
                            </Button>
                            <Menu position={upward ? 'top-end' : 'bottom-end'} withinPortal>
                              <Menu.Target>
                                <Button
                                  size="xs"
                                  variant="default"
                                  rightSection={<IconChevronDown size={14} />}
                                  disabled={isClosing}
                                  aria-label={`More actions for ${p.instrument}`}
                                >
                                  More
                                </Button>
                              </Menu.Target>
                              <Menu.Dropdown>
                                <Menu.Item onClick={() => setAction({ kind: 'sl', position: p })}>
                                  Update SL
                                </Menu.Item>
                                <Menu.Item onClick={() => setAction({ kind: 'tp', position: p })}>
                                  Update TP
                                </Menu.Item>
                                <Menu.Item onClick={() => setAction({ kind: 'partial', position: p })}>
                                  Partial Close
                                </Menu.Item>
                              </Menu.Dropdown>
                            </Menu>
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </ScrollArea>
          ) : null}
        </Stack>
      </Card>

      {action && (
        <Suspense fallback={<Loader aria-label="Loading" />}>
          <UpdateStopLossModal
            position={action.kind === 'sl' ? action.position : null}
            onClose={() => setAction(null)}
            onDone={refresh}
          />
          <UpdateTakeProfitModal
            position={action.kind === 'tp' ? action.position : null}
            onClose={() => setAction(null)}
            onDone={refresh}
          />
          <PartialCloseModal
            position={action.kind === 'partial' ? action.position : null}
            onClose={() => setAction(null)}
            onDone={refresh}
          />
        </Suspense>
      )}
      {tradeOpen && (
        <Suspense fallback={<Loader aria-label="Loading" />}>
          <PlaceTradeModal
            opened={tradeOpen}
            initialAccountId={accountId}
            onClose={() => setTradeOpen(false)}
            onExecuted={refresh}
          />
        </Suspense>
      )}
    </Stack>
  );
}
