import { useMemo, useState } from 'react';
import { Alert, Anchor, Badge, Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../app/errors';
import { ACCOUNT_TEXT, ACCOUNTS_KEY, formatMoney, selectCTraderAccount } from './accounts.api';
import { parseCTraderAccounts, type CTraderChoice } from './ctraderChoices';

/** The list with a Select button per account; posts the choice and reports the result. */
export function CTraderAccountPicker({
  accounts,
  onSelected,
}: {
  accounts: CTraderChoice[];
  onSelected?: (choice: CTraderChoice, message: string) => void;
}) {
  const qc = useQueryClient();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const select = useMutation({
    mutationFn: (c: CTraderChoice) => selectCTraderAccount(c.accountId),
    onSuccess: async (res, choice) => {
      // The server's message is the spec's text; keep the spec's words should it send none.
      const text = res.message || ACCOUNT_TEXT.selected;
      setResult({ ok: true, text });
      onSelected?.(choice, text);
      await qc.invalidateQueries({ queryKey: ACCOUNTS_KEY });
    },
    onError: (err) => setResult({ ok: false, text: errorMessage(err) }),
  });

  if (accounts.length === 0) return <Text c="dimmed">{ACCOUNT_TEXT.noAccounts}</Text>;

  return (
    <Stack gap="sm">
      {result && (
        <Alert color={result.ok ? 'teal' : 'red'} variant="light" role={result.ok ? 'status' : 'alert'}>
          {result.text}
        </Alert>
      )}
      {accounts.map((a) => {
        const label = a.accountNumber ?? String(a.accountId);
        return (
          <Card
            key={String(a.accountId)}
            withBorder
            padding="sm"
            role="group"
            aria-label={`cTrader account ${label}`}
          >
            <Group justify="space-between" wrap="wrap" gap="sm">
              <Stack gap={2}>
                <Group gap="xs">
                  <Text fw={700}>{label}</Text>
                  {a.isLive !== null && (
                    <Badge size="sm" variant="light" color={a.isLive ? 'red' : 'blue'}>
                      {a.isLive ? 'Live' : 'Demo'}
                    </Badge>
                  )}
                </Group>
                <Text size="sm" c="dimmed">
                  {[a.broker || 'Unknown broker', a.currency].filter(Boolean).join(' · ')}
                </Text>
                <Text size="sm">
                  Balance:{' '}
                  {a.balance === null ? 'N/A' : a.currency ? formatMoney(a.balance, a.currency) : a.balance}
                </Text>
              </Stack>
              <Button
                onClick={() => select.mutate(a)}
                loading={select.isPending && select.variables === a}
                disabled={select.isPending && select.variables !== a}
                aria-label={`Select account ${label}`}
              >
                Select
              </Button>
            </Group>
          </Card>
        );
      })}
    </Stack>
  );
}

/** `/select-ctrader-account?accounts=<JSON>`: where cTrader's OAuth callback lands. */
export function SelectCTraderAccountPage() {
  const [params] = useSearchParams();
  const raw = params.get('accounts');
  const accounts = useMemo(() => parseCTraderAccounts(raw), [raw]);
  return (
    <Stack gap="md" maw={720}>
      <Title order={1} size="h2">
        Select a cTrader Account
      </Title>
      <Text c="dimmed">Choose the cTrader account this app should trade with.</Text>
      <CTraderAccountPicker accounts={accounts} />
      <Anchor component={Link} to="/accounts" size="sm">
        Back to Manage Accounts
      </Anchor>
    </Stack>
  );
}

/** The same picker as a modal, for screens that already hold the accounts list. */
export function SelectCTraderAccountModal({
  opened,
  onClose,
  accounts,
  onSelected,
}: {
  opened: boolean;
  onClose: () => void;
  accounts: CTraderChoice[];
  onSelected?: (choice: CTraderChoice, message: string) => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Select a cTrader Account"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <CTraderAccountPicker accounts={accounts} onSelected={onSelected} />
    </Modal>
  );
}
