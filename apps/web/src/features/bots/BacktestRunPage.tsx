import {
  Alert,
  Badge,
  Card,
  Group,
  Loader,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { riskJson } from '@tradedesk/contract';
import { useParams } from 'react-router';
import { BOT_TEXT, useBot, useCandles, useConfig, useRun } from './bots.api';
import { EquityChart } from './EquityChart';
import { PriceChart } from './PriceChart';
import { formatStat, STAT_GROUPS } from './runStats';

/** Backtest run page (`/backtest-runs/{runId}`): overview, progress, stats, charts, trades. */
export function BacktestRunPage() {
  const { runId = '' } = useParams();
  const run = useRun(runId);
  const r = run.data;
  const config = useConfig(r?.backtest_config);
  const botQ = useBot(r?.bot_version_details.bot_id ?? '');
  const risk = config.data ? riskJson.safeParse(config.data.risk_json).data : undefined;
  const candles = useCandles(
    r?.status === 'COMPLETED' && risk && botQ.data
      ? {
          account: botQ.data.account_id,
          symbol: risk.symbol,
          timeframe: risk.timeframe,
          from: r.data_window_start,
          to: r.data_window_end,
        }
      : null,
  );
  if (!r)
    return (
      <Stack gap="lg">
        <Title order={1} size="h2">
          Backtest Run
        </Title>
        {run.isError ? <Alert color="red">{BOT_TEXT.fetchRun}</Alert> : <Loader size="sm" />}
      </Stack>
    );
  const color = r.status === 'COMPLETED' ? 'green' : r.status === 'FAILED' ? 'red' : 'yellow';
  return (
    <Stack gap="lg">
      <Group>
        <Title order={1} size="h2">
          Backtest Run
        </Title>
        <Badge color={color} data-testid="run-status">
          {r.status}
        </Badge>
      </Group>
      {run.isError && <Alert color="red">{BOT_TEXT.updateRun}</Alert>}
      <Card withBorder>
        <Text size="sm">ID: {r.id}</Text>
        <Text size="sm">Configuration: {r.backtest_config_details.label}</Text>
        <Text size="sm">
          Data window: {new Date(r.data_window_start).toLocaleString()} –{' '}
          {new Date(r.data_window_end).toLocaleString()}
        </Text>
        <Text size="sm">Created: {new Date(r.created_at).toLocaleString()}</Text>
        {r.started_at && <Text size="sm">Started: {new Date(r.started_at).toLocaleString()}</Text>}
        {r.completed_at && <Text size="sm">Completed: {new Date(r.completed_at).toLocaleString()}</Text>}
      </Card>
      {(r.status === 'PENDING' || r.status === 'RUNNING') && (
        <Progress value={r.progress * 100} animated aria-label="Progress" />
      )}
      {r.error_message && (
        <Alert color="red" title="Error">
          <pre style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{r.error_message}</pre>
        </Alert>
      )}
      {r.status === 'COMPLETED' && r.stats && (
        <>
          <SimpleGrid cols={{ base: 1, md: 2, xl: 4 }}>
            {STAT_GROUPS.map((g) => (
              <Card withBorder key={g.title}>
                <Text fw={600} mb="xs">
                  {g.title}
                </Text>
                <Table>
                  <Table.Tbody>
                    {g.rows.map(([key, label]) => (
                      <Table.Tr key={key}>
                        <Table.Td>{label}</Table.Td>
                        <Table.Td ta="right">{formatStat(r.stats?.[key])}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Card>
            ))}
          </SimpleGrid>
          <Title order={3}>Equity and drawdown</Title>
          <EquityChart points={r.equity_curve} />
          {candles.data && (
            <>
              <Title order={3}>Price and trades</Title>
              <PriceChart candles={candles.data} trades={r.trades} />
            </>
          )}
          <Title order={3}>Trades ({r.trades.length})</Title>
          <Table striped data-testid="trades-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Side</Table.Th>
                <Table.Th>Entry</Table.Th>
                <Table.Th>Entry price</Table.Th>
                <Table.Th>Exit</Table.Th>
                <Table.Th>Exit price</Table.Th>
                <Table.Th>Lots</Table.Th>
                <Table.Th>P/L</Table.Th>
                <Table.Th>R</Table.Th>
                <Table.Th>Exit reason</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {r.trades.slice(0, 500).map((t, i) => (
                <Table.Tr key={i}>
                  <Table.Td c={t.side === 'buy' ? 'green' : 'red'}>{t.side.toUpperCase()}</Table.Td>
                  <Table.Td>{new Date(t.entry_time).toLocaleString()}</Table.Td>
                  <Table.Td>{t.entry_price.toFixed(5)}</Table.Td>
                  <Table.Td>{new Date(t.exit_time).toLocaleString()}</Table.Td>
                  <Table.Td>{t.exit_price.toFixed(5)}</Table.Td>
                  <Table.Td>{t.volume}</Table.Td>
                  <Table.Td c={t.pnl >= 0 ? 'green' : 'red'}>{t.pnl.toFixed(2)}</Table.Td>
                  <Table.Td>{t.r.toFixed(2)}</Table.Td>
                  <Table.Td>
                    {t.exit_reason}
                    {t.entry_bar_exit ? ' (entry bar)' : ''}
                    {t.parts
                      ? `, in ${t.parts.length} parts: ${t.parts.map((p) => `${p.volume} at ${p.exit_price.toFixed(5)}`).join(', ')}`
                      : ''}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Stack>
  );
}
