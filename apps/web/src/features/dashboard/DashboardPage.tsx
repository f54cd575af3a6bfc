import { lazy, Suspense, useEffect, useState } from 'react';
import { Button, Group, Loader, Select, Stack, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../app/errors';
import { useAccounts } from '../accounts/accounts.api';
import { openPositionsKey } from '../trade/trades.api';
import { AccountStrip } from './AccountStrip';
import { OpenPositions } from './OpenPositions';
import { PendingOrders } from './PendingOrders';

// The order editor is loaded when first opened, not with the dashboard.
const PlaceTradeModal = lazy(() =>
  import('../trade/PlaceTradeModal').then((m) => ({ default: m.PlaceTradeModal })),
);
// The chart (lightweight-charts) comes after the page's first paint, in its own chunk.
const DashboardChart = lazy(() => import('./DashboardChart'));

export function DashboardPage() {
  const qc = useQueryClient();
  const accounts = useAccounts();
  const [accountId, setAccountId] = useState<string | null>(null);
  const [tradeOpen, setTradeOpen] = useState(false);

  useEffect(() => {
    const list = accounts.data ?? [];
    if (list.length && (!accountId || !list.some((a) => a.id === accountId))) setAccountId(list[0]!.id);
  }, [accounts.data, accountId]);

  const refresh = () => {
    if (accountId) void qc.invalidateQueries({ queryKey: openPositionsKey(accountId) });
  };
  const currency = accounts.data?.find((a) => a.id === accountId)?.currency ?? 'USD';
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

      <AccountStrip accountId={accountId} />
      <Suspense fallback={<Loader size="sm" aria-label="Loading the chart" />}>
        <DashboardChart accountId={accountId} />
      </Suspense>

      <OpenPositions accountId={accountId} currency={currency} />
      <PendingOrders accountId={accountId} />

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
