import { useState, type ReactNode } from 'react';
import { Alert, Anchor, Badge, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconEdit, IconPlugConnected } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import type { PlatformName, TradingAccount } from '@tradedesk/contract';
import { errorMessage } from '../../app/errors';
import {
  ACCOUNT_TEXT,
  connectMt5,
  ctraderRedirect,
  fetchMt5Details,
  formatMoney,
  PLATFORM_LABEL,
  useAccountDetails,
} from './accounts.api';

const PLATFORM_COLOR: Record<PlatformName, string> = { MT5: 'blue', cTrader: 'grape', SIM: 'teal' };

type ConnectResult = { ok: boolean; content: ReactNode };

class StepError extends Error {
  constructor(
    readonly failure: unknown,
    readonly fallback: string,
  ) {
    super(fallback);
  }
}

function Figures({ balance, equity, currency }: { balance: number; equity: number; currency: string }) {
  return (
    <Group gap="lg">
      {(
        [
          ['Balance', balance],
          ['Equity', equity],
        ] as const
      ).map(([label, amount]) => (
        <Stack gap={0} key={label}>
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text fw={600} aria-label={label}>
            {formatMoney(amount, currency)}
          </Text>
        </Stack>
      ))}
    </Group>
  );
}

/**
 * One account: name, broker, platform, balance and equity where they are cheap to read (the
 * simulated broker), Edit and Connect. Connect: MT5 logs in with the stored details, cTrader opens
 * its login page in a new tab, the simulator is always connected.
 */
export function AccountCard({ account, onEdit }: { account: TradingAccount; onEdit: () => void }) {
  const isSim = account.platform === 'SIM';
  const details = useAccountDetails(account.id, isSim);
  const [result, setResult] = useState<ConnectResult | null>(null);

  const connect = useMutation({
    mutationFn: async (): Promise<ConnectResult> => {
      if (account.platform === 'MT5') {
        const stored = await fetchMt5Details(account.id).catch((e: unknown) => {
          throw new StepError(e, ACCOUNT_TEXT.mt5DetailsFailed);
        });
        const info = await connectMt5(account.id).catch((e: unknown) => {
          throw new StepError(e, ACCOUNT_TEXT.mt5ConnectFailed);
        });
        return {
          ok: true,
          content: (
            <Stack gap={4}>
              <Text size="sm">
                {info.message} Account {stored.account_number ?? info.login} on{' '}
                {stored.broker_server ?? info.server}.
              </Text>
              <Figures balance={info.balance} equity={info.equity} currency={info.currency} />
            </Stack>
          ),
        };
      }
      if (account.platform === 'cTrader') {
        const { redirect_url } = await ctraderRedirect(account.id).catch((e: unknown) => {
          throw new StepError(e, ACCOUNT_TEXT.ctraderUrlFailed);
        });
        window.open(redirect_url, '_blank', 'noopener,noreferrer');
        return {
          ok: true,
          content: (
            <Text size="sm">
              The cTrader login opened in a new tab. Not there?{' '}
              <Anchor href={redirect_url} target="_blank" rel="noopener noreferrer">
                Open the cTrader login
              </Anchor>
            </Text>
          ),
        };
      }
      const d = await details.refetch({ throwOnError: true });
      const info = d.data!;
      return {
        ok: true,
        content: (
          <Stack gap={4}>
            <Text size="sm">Simulated account: always connected.</Text>
            <Figures balance={info.balance} equity={info.equity} currency={info.currency} />
          </Stack>
        ),
      };
    },
    onMutate: () => setResult(null),
    onSuccess: setResult,
    onError: (err) =>
      setResult({
        ok: false,
        content:
          err instanceof StepError
            ? errorMessage(err.failure, err.fallback)
            : errorMessage(err, ACCOUNT_TEXT.fetchFailed),
      }),
  });

  const titleId = `account-${account.id}-title`;
  return (
    <Card withBorder padding="lg" component="article" aria-labelledby={titleId}>
      <Stack gap="sm" h="100%">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={3} size="h4" id={titleId}>
            {account.name}
          </Title>
          <Badge variant="light" color={PLATFORM_COLOR[account.platform]}>
            {PLATFORM_LABEL[account.platform]}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {account.broker || 'No broker set'}
          {account.platform === 'MT5' && account.account_number
            ? ` · ${account.account_number}${account.broker_server ? ` @ ${account.broker_server}` : ''}`
            : ''}
        </Text>
        {isSim &&
          (details.isPending ? (
            <Group gap="xs">
              <Loader size="xs" />
              <Text size="sm" c="dimmed">
                Loading balance…
              </Text>
            </Group>
          ) : details.data ? (
            <Figures
              balance={details.data.balance}
              equity={details.data.equity}
              currency={details.data.currency}
            />
          ) : (
            <Text size="sm" c="red">
              {errorMessage(details.error, 'Balance unavailable')}
            </Text>
          ))}
        {result && (
          <Alert
            color={result.ok ? 'teal' : 'red'}
            variant="light"
            role={result.ok ? 'status' : 'alert'}
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setResult(null)}
          >
            {result.content}
          </Alert>
        )}
        <Group gap="sm" mt="auto">
          <Button
            variant="default"
            leftSection={<IconEdit size={16} />}
            onClick={onEdit}
            aria-label={`Edit ${account.name}`}
          >
            Edit
          </Button>
          <Button
            leftSection={<IconPlugConnected size={16} />}
            loading={connect.isPending}
            onClick={() => connect.mutate()}
            aria-label={`Connect ${account.name}`}
          >
            Connect
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
