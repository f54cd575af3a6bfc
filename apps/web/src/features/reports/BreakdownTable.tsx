import { useMemo, useState } from 'react';
import { Button, Group, Table, Text, UnstyledButton } from '@mantine/core';
import type { BreakdownRow } from '@tradedesk/contract';
import { pnlColor } from '../history/format';
import { downloadCsv, toCsv } from './csv';
import { money, pct, ratio, rText } from './format';

type Col =
  'key' | 'trades' | 'win_rate' | 'net_minor' | 'expectancy_minor' | 'expectancy_r' | 'profit_factor';

/** One breakdown as a table: click a heading to sort by it (again to reverse); CSV of what is shown. */
export function BreakdownTable({
  title,
  rows,
  decimals,
  currency,
  fileName,
  note,
}: {
  title: string;
  /** A line under the title, such as the zone the times are read in. */
  note?: string;
  rows: BreakdownRow[];
  decimals: number;
  currency: string;
  fileName: string;
}) {
  const [sort, setSort] = useState<{ col: Col | null; desc: boolean }>({ col: null, desc: true });
  const sorted = useMemo(() => {
    if (!sort.col) return rows;
    const c = sort.col;
    return [...rows].sort((a, b) => {
      const x = a[c];
      const y = b[c];
      const cmp = x === null ? 1 : y === null ? -1 : x < y ? -1 : x > y ? 1 : 0;
      return sort.desc ? -cmp : cmp;
    });
  }, [rows, sort]);
  const cols: [Col, string][] = [
    ['key', title],
    ['trades', 'Trades'],
    ['win_rate', 'Win rate'],
    ['net_minor', `P/L (${currency})`],
    ['expectancy_minor', `Expectancy (${currency})`],
    ['expectancy_r', 'Expectancy (R)'],
    ['profit_factor', 'Profit factor'],
  ];
  const cells = (r: BreakdownRow) => [
    r.key,
    String(r.trades),
    pct(r.win_rate),
    money(r.net_minor, decimals),
    money(r.expectancy_minor, decimals),
    rText(r.expectancy_r),
    ratio(r.profit_factor),
  ];
  const exportCsv = () =>
    downloadCsv(
      fileName,
      toCsv(
        cols.map(([, label]) => label),
        sorted.map(cells),
      ),
    );
  return (
    <div>
      <Group justify="space-between" mb={4}>
        <div>
          <Text fw={600}>By {title.toLowerCase()}</Text>
          {note && (
            <Text size="xs" c="dimmed">
              {note}
            </Text>
          )}
        </div>
        <Button size="compact-xs" variant="default" onClick={exportCsv} className="no-print">
          Export CSV
        </Button>
      </Group>
      <Table striped withTableBorder aria-label={`Performance by ${title.toLowerCase()}`}>
        <Table.Thead>
          <Table.Tr>
            {cols.map(([col, label]) => (
              <Table.Th
                key={col}
                aria-sort={sort.col === col ? (sort.desc ? 'descending' : 'ascending') : 'none'}
              >
                <UnstyledButton
                  onClick={() => setSort((s) => ({ col, desc: s.col === col ? !s.desc : col !== 'key' }))}
                  fw={600}
                  fz="sm"
                >
                  {label}
                  {sort.col === col ? (sort.desc ? ' ▼' : ' ▲') : ''}
                </UnstyledButton>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sorted.map((r) => (
            <Table.Tr key={r.key}>
              {cells(r).map((v, i) => (
                <Table.Td
                  key={i}
                  c={i === 3 ? pnlColor(r.net_minor) : undefined}
                  className={i ? 'num' : undefined}
                >
                  {v}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}
