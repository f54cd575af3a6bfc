import { useMemo, useState } from 'react';
import { Button, Card, Group, Table, Text } from '@mantine/core';
import type { ReportSummary } from '@tradedesk/contract';
import { fromMinor } from '@tradedesk/domain';
import { calendarCsv, downloadCsv } from './csv';
import { money } from './format';

const DAY = 86_400_000;
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function monthLabel(month: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleDateString(undefined, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

function shiftMonth(month: string, by: number): string {
  const d = new Date(`${month}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + by);
  return d.toISOString().slice(0, 7);
}

/**
 * A month of daily P/L (Monday first) with each week's total beside it. A day's colour repeats what
 * its signed amount already says, so the grid reads the same without colour and in print.
 */
export function PnlCalendar({ summary }: { summary: ReportSummary }) {
  const { calendar, currency_decimals: dec, currency } = summary;
  const latest = calendar.days.at(-1)?.key.slice(0, 7) ?? new Date().toISOString().slice(0, 7);
  const [month, setMonth] = useState(latest);
  const [shownFor, setShownFor] = useState(latest);
  if (shownFor !== latest) {
    // New data (other filters): jump to its latest month.
    setShownFor(latest);
    setMonth(latest);
  }
  const days = useMemo(() => new Map(calendar.days.map((d) => [d.key, d])), [calendar.days]);
  const weeks = useMemo(() => new Map(calendar.weeks.map((w) => [w.key, w])), [calendar.weeks]);
  const first = Date.parse(`${month}-01T00:00:00Z`);
  const start = first - ((new Date(first).getUTCDay() + 6) % 7) * DAY;
  const rows: number[] = [];
  for (let w = start; iso(w).slice(0, 7) <= month; w += 7 * DAY) rows.push(w);
  const monthTotal = calendar.months.find((m) => m.key === month);
  const yearTotal = calendar.years.find((y) => y.key === month.slice(0, 4));

  return (
    <Card withBorder padding="md" aria-label="P/L calendar">
      <Group justify="space-between" mb="xs">
        <Text fw={600}>P/L calendar: {monthLabel(month)}</Text>
        <Group gap="xs" className="no-print">
          <Button size="compact-sm" variant="default" onClick={() => setMonth(shiftMonth(month, -1))}>
            Previous month
          </Button>
          <Button size="compact-sm" variant="default" onClick={() => setMonth(shiftMonth(month, 1))}>
            Next month
          </Button>
          <Button
            size="compact-sm"
            variant="default"
            onClick={() =>
              downloadCsv(
                'report-calendar.csv',
                calendarCsv(calendar, currency, (m) => fromMinor(m, dec).toFixed(dec)),
              )
            }
          >
            Export CSV
          </Button>
        </Group>
      </Group>
      <Table withTableBorder withColumnBorders layout="fixed" aria-label={`Daily P/L, ${monthLabel(month)}`}>
        <Table.Thead>
          <Table.Tr>
            {WEEKDAYS.map((d) => (
              <Table.Th key={d}>{d}</Table.Th>
            ))}
            <Table.Th>Week</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((w) => {
            const week = weeks.get(iso(w));
            return (
              <Table.Tr key={w}>
                {WEEKDAYS.map((_, i) => {
                  const key = iso(w + i * DAY);
                  const inMonth = key.slice(0, 7) === month;
                  const d = inMonth ? days.get(key) : undefined;
                  const tone = !d || d.net_minor === 0 ? undefined : d.net_minor > 0 ? 'profit' : 'loss';
                  return (
                    <Table.Td key={key} className={tone ? `cal-day cal-${tone}` : 'cal-day'} data-day={key}>
                      {inMonth && (
                        <>
                          <Text size="xs" c="dimmed">
                            {Number(key.slice(8))}
                          </Text>
                          {d && (
                            <>
                              <Text size="sm" fw={600} className="num">
                                {money(d.net_minor, dec)}
                              </Text>
                              <Text size="xs" c="dimmed">
                                {d.trades} {d.trades === 1 ? 'trade' : 'trades'}
                              </Text>
                            </>
                          )}
                        </>
                      )}
                    </Table.Td>
                  );
                })}
                <Table.Td className="num" fw={600}>
                  {week ? money(week.net_minor, dec) : ''}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      <Group gap="xl" mt="xs">
        <Text size="sm">
          Month ({currency}): <b className="num">{money(monthTotal?.net_minor ?? 0, dec)}</b>
        </Text>
        <Text size="sm">
          Year {month.slice(0, 4)} ({currency}):{' '}
          <b className="num">{money(yearTotal?.net_minor ?? 0, dec)}</b>
        </Text>
      </Group>
    </Card>
  );
}
