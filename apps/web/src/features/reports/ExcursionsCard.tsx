import { lazy, Suspense } from 'react';
import { Alert, Button, Card, Group, Loader, Table, Text } from '@mantine/core';
import { fromMinor } from '@tradedesk/domain';
import { downloadCsv, toCsv } from './csv';
import { money, pct } from './format';
import { useReportExcursions, type ReportFilters } from './reports.api';

const ExcursionScatter = lazy(() => import('./ExcursionScatter'));

/**
 * MFE and MAE from the stored M1 candles: the scatter of MFE against the final R, the share of
 * winners that went negative first, money left on the table per R target, and the trades the
 * candle store has no minutes for (listed, so the trader knows what to import).
 */
export function ExcursionsCard({ filters }: { filters: ReportFilters }) {
  const q = useReportExcursions(filters);
  const x = q.data;
  return (
    <Card withBorder padding="md" aria-label="Excursions">
      <Text fw={600}>Excursions (MFE and MAE)</Text>
      <Text size="xs" c="dimmed" mb="xs">
        How far the price went for and against each closed trade between entry and exit, from the stored
        one-minute candles of its symbol.
      </Text>
      {q.isPending && <Loader size="sm" aria-label="Loading excursions" />}
      {q.isError && (
        <Alert color="red" title="Excursions could not be loaded">
          {q.error.message}
        </Alert>
      )}
      {x && x.measured === 0 && (
        <Text size="sm">
          None of these {x.trades_total} trades could be measured: the candle store holds no one-minute
          candles of their time. Open the instrument&apos;s chart for those days or import its M1 history,
          then come back.
        </Text>
      )}
      {x && x.measured > 0 && (
        <>
          <Text size="sm" aria-label="Excursion figures">
            {x.measured} of {x.trades_total} trades measured.{' '}
            {x.winners > 0
              ? `${x.winners_negative_first} of ${x.winners} winners (${pct(x.winners_negative_first_share)}) went negative first.`
              : 'No measured winners.'}
          </Text>
          <Suspense fallback={<Loader size="sm" aria-label="Loading the scatter" />}>
            <ExcursionScatter trades={x.trades} />
          </Suspense>
          {x.measured > x.trades.length && (
            <Text size="xs" c="dimmed">
              The scatter shows the {x.trades.length} most recently closed of the {x.measured} measured
              trades.
            </Text>
          )}
          <Group justify="space-between" mt="sm" mb={4}>
            <Text fw={600} size="sm">
              Left on the table
            </Text>
            <Button
              size="compact-xs"
              variant="default"
              className="no-print"
              onClick={() =>
                downloadCsv(
                  'report-left-on-the-table.csv',
                  toCsv(
                    ['Target (R)', 'Reached', 'Closed below', `Left (${x.currency})`],
                    x.left_on_table.map((l) => [
                      l.target_r,
                      l.reached,
                      l.closed_below,
                      fromMinor(l.left_minor, x.currency_decimals).toFixed(x.currency_decimals),
                    ]),
                  ),
                )
              }
            >
              Export CSV
            </Button>
          </Group>
          <Table striped withTableBorder aria-label="Left on the table per target">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Target</Table.Th>
                <Table.Th>Reached</Table.Th>
                <Table.Th>Closed below</Table.Th>
                <Table.Th>Left ({x.currency})</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {x.left_on_table.map((l) => (
                <Table.Tr key={l.target_r}>
                  <Table.Td>{l.target_r}R</Table.Td>
                  <Table.Td className="num">{l.reached}</Table.Td>
                  <Table.Td className="num">{l.closed_below}</Table.Td>
                  <Table.Td className="num">{money(l.left_minor, x.currency_decimals)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
      {x && x.without_candles.count > 0 && (
        <Text size="xs" mt="xs" aria-label="Trades without candles">
          {x.without_candles.count} {x.without_candles.count === 1 ? 'trade has' : 'trades have'} no stored
          candles of their time:{' '}
          {x.without_candles.trades
            .slice(0, 20)
            .map((t) => `${t.symbol} ${new Date(t.closed_at).toLocaleDateString()}`)
            .join(', ')}
          {x.without_candles.count > 20 ? ', …' : ''}
        </Text>
      )}
    </Card>
  );
}
