import { Alert, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { useHistoryTrade } from './history.api';
import { TradeDetailPanel } from './TradeDetailPanel';

export const SPECIFIC_TRADE_TEXT = {
  noId: 'No Trade ID provided.',
  noIdToFetch: 'No Trade ID available to fetch details.',
  failed: 'Failed to fetch trade details',
} as const;

/** One trade by its id (spec: specific trade page). */
export function SpecificTradePage() {
  const { tradeId } = useParams();
  const id = tradeId?.trim();
  const trade = useHistoryTrade(id || undefined);
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Specific Trade History
      </Title>
      {tradeId === undefined ? (
        <Text c="dimmed">{SPECIFIC_TRADE_TEXT.noId}</Text>
      ) : !id ? (
        <Text c="dimmed">{SPECIFIC_TRADE_TEXT.noIdToFetch}</Text>
      ) : trade.isLoading ? (
        <Loader />
      ) : trade.isError || !trade.data ? (
        <Alert color="red" variant="light">
          {SPECIFIC_TRADE_TEXT.failed}
        </Alert>
      ) : (
        <Paper withBorder p="md">
          <TradeDetailPanel trade={trade.data} />
        </Paper>
      )}
    </Stack>
  );
}
