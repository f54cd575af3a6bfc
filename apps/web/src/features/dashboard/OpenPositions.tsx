import { lazy, Suspense, useState } from 'react';
import { Alert, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useId, useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { useQueryClient } from '@tanstack/react-query';
import { currencyDecimals, sumMoney } from '@tradedesk/domain';
import { errorMessage } from '../../app/errors';
import { notifications } from '../../app/notify';
import { PNL_COLORS } from '../../app/theme';
import {
  actionFailure,
  closeTrade,
  formatLots,
  openPositionsKey,
  TRADE_TEXT,
  useOpenPositions,
  type OpenPosition,
} from '../trade/trades.api';
import type { PositionAction } from './PositionActions';
import { useBotPositions } from '../bots/botPositions.api';
import { PositionCards } from './PositionCards';
import { PositionsTable } from './PositionsTable';

// The position editors are loaded when first opened, not with the dashboard.
const UpdateStopLossModal = lazy(() =>
  import('./PositionModals').then((m) => ({ default: m.UpdateStopLossModal })),
);
const UpdateTakeProfitModal = lazy(() =>
  import('./PositionModals').then((m) => ({ default: m.UpdateTakeProfitModal })),
);
const PartialCloseModal = lazy(() =>
  import('./PositionModals').then((m) => ({ default: m.PartialCloseModal })),
);

/** Mantine's `sm` breakpoint: cards below it, the table from it up. */
const PHONE = '(max-width: 47.99em)';

interface Props {
  accountId: string | null;
  currency: string;
}

/**
 * The Open Positions card of the dashboard (spec: columns, Total P/L, Close with confirmation and
 * Closing..., More with Update SL, Update TP and Partial Close; polled every 10 s): a compact table
 * from 768 px up and a card per position below.
 */
export function OpenPositions({ accountId, currency }: Props) {
  const qc = useQueryClient();
  const titleId = useId();
  const phone = useMediaQuery(PHONE);
  const [closing, setClosing] = useState<Set<string>>(new Set());
  const [action, setAction] = useState<{ kind: PositionAction; position: OpenPosition } | null>(null);
  const positions = useOpenPositions(accountId);
  const rows = positions.data ?? [];
  const bots = useBotPositions(accountId).data;
  const decimals = currencyDecimals(currency);
  const totalPl = sumMoney(
    rows.map((p) => p.current_pl ?? 0),
    decimals,
  );
  const refresh = () => {
    if (accountId) void qc.invalidateQueries({ queryKey: openPositionsKey(accountId) });
  };

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

  const onAction = (kind: PositionAction, position: OpenPosition) => setAction({ kind, position });
  const view = { rows, decimals, closing, onClose: confirmClose, onAction, bots };

  return (
    <Card withBorder padding="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3" id={titleId}>
            Open Positions
          </Title>
          <Text fw={600} aria-live="polite">
            Total P/L:{' '}
            <Text span fw={700} c={totalPl >= 0 ? PNL_COLORS.up : PNL_COLORS.down} data-testid="total-pl">
              {totalPl.toFixed(decimals)}
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
          phone ? (
            <PositionCards {...view} />
          ) : (
            <PositionsTable {...view} />
          )
        ) : null}
      </Stack>

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
    </Card>
  );
}
