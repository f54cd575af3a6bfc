import { useState } from 'react';
import { Alert, Card, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { AreaChart } from '@mantine/charts';
import type { ReportDimension } from '@tradedesk/contract';
import { fromMinor } from '@tradedesk/domain';
import { BreakdownTable } from './BreakdownTable';
import { ExcursionsCard } from './ExcursionsCard';
import { PnlCalendar } from './PnlCalendar';
import { ReportCards } from './ReportCards';
import { ReportFiltersBar, type RangePreset } from './ReportFiltersBar';
import { RHistogram } from './RHistogram';
import { money } from './format';
import { useReportBreakdowns, useReportSummary, type ReportFilters } from './reports.api';
import './reports.css';

const TABLES: [ReportDimension, string][] = [
  ['instrument', 'Instrument'],
  ['direction', 'Direction'],
  ['session', 'Session'],
  ['weekday', 'Weekday'],
  ['hour', 'Hour of entry'],
  ['holding_time', 'Holding time'],
  ['strategy_tag', 'Strategy tag'],
  ['emotional_state', 'Emotional state'],
  ['market_condition', 'Market condition'],
  ['trader', 'Trader'],
  ['bot', 'Bot vs manual'],
];
const DIMS = TABLES.map(([d]) => d);
/** The breakdowns read in the trader's time zone. */
const ZONED: ReadonlySet<ReportDimension> = new Set(['weekday', 'hour']);

export function ReportsPage() {
  const [filters, setFilters] = useState<ReportFilters>({
    account: '',
    from: '',
    to: '',
    instrument: '',
    tag: '',
  });
  const [preset, setPreset] = useState<RangePreset>('All time');
  const summary = useReportSummary(filters);
  const breakdowns = useReportBreakdowns(filters, DIMS);
  const s = summary.data;

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Reports
      </Title>
      <ReportFiltersBar
        filters={filters}
        preset={preset}
        onChange={(f, p) => {
          setFilters(f);
          setPreset(p);
        }}
      />
      {summary.isPending && <Loader aria-label="Loading reports" />}
      {summary.isError && (
        <Alert color="red" title="Reports could not be loaded">
          {summary.error.message}
        </Alert>
      )}
      {s && s.figures.trades === 0 && (
        <Card withBorder padding="lg">
          <Text fw={600}>No closed trades match these filters.</Text>
          <Text c="dimmed" size="sm" mt="xs">
            Reports count closed trades. Widen the range or clear the instrument and tag, or bring trades in:
            place and close trades, sync an account from Trade History, or import a broker statement there.
          </Text>
        </Card>
      )}
      {s && s.figures.trades > 0 && (
        <>
          <ReportCards summary={s} />
          <Card withBorder padding="md" aria-label="Equity curve">
            <Text fw={600}>Equity curve (closed trades)</Text>
            <Text size="xs" c="dimmed" mb="xs">
              Cumulative P/L and the fall from its running peak ({s.currency}).
            </Text>
            <AreaChart
              h={200}
              data={s.equity_curve.map((p) => ({
                time: new Date(p.time).toLocaleDateString(),
                equity: fromMinor(p.equity_minor, s.currency_decimals),
                drawdown: -fromMinor(p.drawdown_minor, s.currency_decimals),
              }))}
              dataKey="time"
              series={[
                { name: 'equity', label: 'Equity', color: 'blue.6' },
                { name: 'drawdown', label: 'Drawdown', color: 'red.6', strokeDasharray: '5 5' },
              ]}
              withLegend
              withDots={false}
              curveType="linear"
            />
          </Card>
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
            <PnlCalendar summary={s} />
            <RHistogram summary={s} />
          </SimpleGrid>
          <ExcursionsCard filters={filters} />
          <Card withBorder padding="md" aria-label="Journal discipline">
            <Text fw={600}>Journal discipline</Text>
            <Text size="sm">
              {s.discipline.journaled} of {s.discipline.trades} trades journaled, {s.discipline.with_snapshot}{' '}
              with a snapshot, {s.discipline.with_reason} with a reason. Journaled trades:{' '}
              {money(s.discipline.journaled_figures.net_minor, s.currency_decimals)} over{' '}
              {s.discipline.journaled_figures.trades}; not journaled:{' '}
              {money(s.discipline.not_journaled_figures.net_minor, s.currency_decimals)} over{' '}
              {s.discipline.not_journaled_figures.trades}.
            </Text>
          </Card>
          {breakdowns.data && (
            <SimpleGrid cols={{ base: 1, xl: 2 }} spacing="md">
              {TABLES.map(([dim, title]) => (
                <BreakdownTable
                  key={dim}
                  title={title}
                  rows={breakdowns.data.breakdowns[dim] ?? []}
                  decimals={s.currency_decimals}
                  currency={s.currency}
                  fileName={`report-${dim}.csv`}
                  note={ZONED.has(dim) ? `Times in ${breakdowns.data.time_zone}` : undefined}
                />
              ))}
            </SimpleGrid>
          )}
        </>
      )}
    </Stack>
  );
}
