import { useState } from 'react';
import { Autocomplete, Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import type { TradingAccount } from '@tradedesk/contract';
import { LiveQuote } from './LiveQuote';

/**
 * The simulated broker's symbols (issue 3). The API has no symbol list yet, so other platforms
 * get these as suggestions and accept any symbol typed in.
 */
export const SIM_SYMBOLS = [
  'EURUSD',
  'GBPUSD',
  'USDJPY',
  'AUDUSD',
  'USDCAD',
  'USDCHF',
  'NZDUSD',
  'EURJPY',
  'GBPJPY',
  'XAUUSD',
  'US100',
  'US30',
  'BTCUSD',
] as const;

const accountLabel = (a: TradingAccount) => `${a.name} (${a.platform === 'SIM' ? 'Simulated' : a.platform})`;

/** "Live prices": pick an account and a symbol, watch its bid and ask. */
export function LivePricesPanel({ accounts }: { accounts: TradingAccount[] }) {
  const [accountId, setAccountId] = useState<string | null>(null);
  const [symbol, setSymbol] = useState<string>('EURUSD');
  const [draft, setDraft] = useState<string>('EURUSD');
  const account = accounts.find((a) => a.id === accountId) ?? accounts[0];

  const commit = (value: string) => {
    const s = value.trim().toUpperCase();
    setDraft(s);
    if (s) setSymbol(s);
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="live-prices-title">
      <Stack gap="sm">
        <Title order={3} id="live-prices-title">
          Live prices
        </Title>
        {!account ? (
          <Text c="dimmed">Add an account to watch its prices.</Text>
        ) : (
          <>
            <Group gap="sm" align="flex-end" wrap="wrap">
              <Select
                label="Account"
                data={accounts.map((a) => ({ value: a.id, label: accountLabel(a) }))}
                value={account.id}
                onChange={(v) => v && setAccountId(v)}
                allowDeselect={false}
                w={240}
              />
              <Autocomplete
                label="Symbol"
                description="Pick or type a symbol, then press Enter"
                data={[...SIM_SYMBOLS]}
                value={draft}
                onChange={(v) => setDraft(v.toUpperCase())}
                onOptionSubmit={commit}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') commit(e.currentTarget.value);
                }}
                onBlur={(e) => commit(e.currentTarget.value)}
                w={200}
              />
            </Group>
            <LiveQuote accountId={account.id} symbol={symbol} />
            {account.platform === 'SIM' && (
              <Text size="xs" c="dimmed">
                FX symbols are closed at the weekend; BTCUSD trades every day.
              </Text>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}
