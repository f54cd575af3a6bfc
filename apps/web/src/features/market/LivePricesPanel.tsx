import { useState } from 'react';
import { Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import type { TradingAccount } from '@tradedesk/contract';
import { LiveQuote } from './LiveQuote';
import { SymbolPicker } from './SymbolPicker';

const accountLabel = (a: TradingAccount) => `${a.name} (${a.platform === 'SIM' ? 'Simulated' : a.platform})`;

/** "Live prices": pick an account and a symbol, watch its bid and ask. */
export function LivePricesPanel({ accounts }: { accounts: TradingAccount[] }) {
  const [accountId, setAccountId] = useState<string | null>(null);
  const [symbol, setSymbol] = useState<string>('EURUSD');
  const account = accounts.find((a) => a.id === accountId) ?? accounts[0];

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
              <SymbolPicker accountId={account.id} value={symbol} onChange={setSymbol} w={260} />
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
