import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Badge,
  Box,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '../../app/notify';
import { IconChevronDown, IconChevronRight, IconDownload, IconFileImport } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useNavigate, useParams } from 'react-router';
import { HISTORY_SORT_LABELS, HISTORY_SORTS, type HistorySort, type HistoryTrade } from '@tradedesk/contract';
import { useAccounts } from '../accounts/accounts.api';
import { fmtLots, fmtNumber, fmtPrice, fmtTime, pnlColor } from './format';
import { ImportStatementModal } from './ImportStatementModal';
import {
  dayEnd,
  dayStart,
  downloadTradesCsv,
  localDate,
  useHistoryStats,
  useHistoryTrades,
  weekStart,
} from './history.api';
import { StatsStrip } from './StatsStrip';
import { TradeDetailPanel } from './TradeDetailPanel';

export const TRADE_HISTORY_TEXT = {
  empty: 'No trades found for this account.',
  loading: 'Loading trades...',
  failed: 'Failed to fetch data. Please try another account.',
} as const;

type Quick = 'today' | 'week' | null;
const QUICK_RANGES: ReadonlyArray<readonly [Exclude<Quick, null>, string]> = [
  ['today', 'Today'],
  ['week', 'This Week'],
];

const COLUMNS = '1.2fr 0.8fr 1fr 0.7fr 0.8fr 0.9fr 1.4fr 0.8fr';
const HEADERS = ['Instrument', 'Direction', 'Entry Price', 'Lot Size', 'Status', 'P/L', 'Created', 'Actions'];

/** Memoised: a scroll frame re-renders only the rows that enter the window, not those already drawn. */
const Row = memo(function Row({
  t,
  open,
  onToggle,
}: {
  t: HistoryTrade;
  open: boolean;
  onToggle: (id: string) => void;
}) {
  return (
    <Box
      role="row"
      aria-label={`${t.instrument} ${t.direction} ${t.trade_status}`}
      style={{
        display: 'grid',
        gridTemplateColumns: COLUMNS,
        alignItems: 'center',
        gap: 8,
        padding: '8px 12px',
      }}
      className="num"
    >
      <Text role="cell" size="sm" fw={600}>
        {t.instrument}
        {t.is_external && (
          <Badge ml={6} size="xs" variant="outline" color="gray">
            {t.source === 'import' ? 'Imported' : 'External'}
          </Badge>
        )}
      </Text>
      <Text role="cell" size="sm" fw={600} c={t.direction === 'BUY' ? 'teal.7' : 'red.7'}>
        {t.direction}
      </Text>
      <Text role="cell" size="sm">
        {fmtPrice(t.entry_price)}
      </Text>
      <Text role="cell" size="sm">
        {fmtLots(t.lot_size)}
      </Text>
      <Box role="cell">
        <Badge size="sm" variant="light" color={t.trade_status === 'closed' ? 'gray' : 'yellow'}>
          {t.trade_status}
        </Badge>
      </Box>
      <Text role="cell" size="sm" fw={600} c={pnlColor(t.actual_profit_loss)}>
        {fmtNumber(t.actual_profit_loss, 2)}
      </Text>
      <Text role="cell" size="xs" c="dimmed">
        {fmtTime(t.created_at)}
      </Text>
      <Box role="cell">
        <UnstyledButton
          onClick={() => onToggle(t.id)}
          aria-expanded={open}
          aria-label={`Details of ${t.instrument} trade opened ${fmtTime(t.created_at)}`}
        >
          <Group gap={4}>
            {open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
            <Text size="sm" c="blue">
              Details
            </Text>
          </Group>
        </UnstyledButton>
      </Box>
    </Box>
  );
});

interface TradeListProps {
  rows: HistoryTrade[];
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/**
 * The virtualised list on its own, so that scrolling re-renders only the list (not the filters and
 * the stats chart above it) and the DOM holds the visible rows whatever the number of trades.
 */
function TradeList({ rows, hasNextPage, isFetchingNextPage, fetchNextPage }: TradeListProps) {
  const [openId, setOpenId] = useState<string | null>(null);
  const toggle = useCallback((id: string) => setOpenId((cur) => (cur === id ? null : id)), []);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 44,
    overscan: 12,
    getItemKey: (i) => rows[i]!.id,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (lastIndex >= rows.length - 20 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [lastIndex, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <Paper withBorder role="table" aria-label="Trades" aria-rowcount={rows.length}>
      <Box role="rowgroup">
        <Box
          role="row"
          style={{ display: 'grid', gridTemplateColumns: COLUMNS, gap: 8, padding: '8px 12px' }}
        >
          {HEADERS.map((h) => (
            <Text key={h} role="columnheader" size="xs" fw={700} c="dimmed">
              {h}
            </Text>
          ))}
        </Box>
      </Box>
      <Box
        ref={scrollRef}
        role="rowgroup"
        style={{ height: 'min(640px, 65vh)', overflowY: 'auto', contain: 'strict' }}
      >
        <Box style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((vi) => {
            const t = rows[vi.index]!;
            const open = openId === t.id;
            return (
              <Box
                key={vi.key}
                data-index={vi.index}
                ref={virtualizer.measureElement}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  width: '100%',
                  transform: `translateY(${vi.start}px)`,
                  borderTop: '1px solid var(--mantine-color-default-border)',
                }}
              >
                <Row t={t} open={open} onToggle={toggle} />
                {open && (
                  <Box px="md" pb="md">
                    <TradeDetailPanel trade={t} />
                  </Box>
                )}
              </Box>
            );
          })}
        </Box>
      </Box>
      {isFetchingNextPage && (
        <Text size="xs" c="dimmed" p="xs">
          {TRADE_HISTORY_TEXT.loading}
        </Text>
      )}
    </Paper>
  );
}

/** The account's trades, newest first by default, with the range's stats (spec: trade history per account). */
export function TradeHistoryPage() {
  const { accountId = '' } = useParams();
  const navigate = useNavigate();
  const accounts = useAccounts();
  const today = localDate(new Date());
  const [quick, setQuick] = useState<Quick>('week');
  const [dateFrom, setDateFrom] = useState(weekStart(new Date()));
  const [dateTo, setDateTo] = useState(today);
  const [sort, setSort] = useState<HistorySort>('newest');
  const [importing, setImporting] = useState(false);
  const range = useMemo(
    () => ({ from: dateFrom ? dayStart(dateFrom) : undefined, to: dateTo ? dayEnd(dateTo) : undefined }),
    [dateFrom, dateTo],
  );
  const trades = useHistoryTrades(accountId, { ...range, sort });
  const stats = useHistoryStats(accountId, range);
  const rows = useMemo(() => trades.data?.pages.flatMap((p) => p.results) ?? [], [trades.data]);

  const pickQuick = (q: Exclude<Quick, null>) => {
    setQuick(q);
    setDateFrom(q === 'today' ? today : weekStart(new Date()));
    setDateTo(today);
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={1} size="h2">
          Trade History
        </Title>
        <Select
          label="Account"
          w={260}
          data={(accounts.data ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.platform})` }))}
          value={accountId}
          onChange={(v) => v && v !== accountId && navigate(`/accounts/${v}/trade-history`)}
          allowDeselect={false}
          placeholder={accounts.isLoading ? 'Loading accounts…' : 'Choose an account'}
        />
      </Group>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          type="date"
          label="Date from"
          value={dateFrom}
          max={dateTo || undefined}
          onChange={(e) => {
            setDateFrom(e.currentTarget.value);
            setQuick(null);
          }}
        />
        <TextInput
          type="date"
          label="Date to"
          value={dateTo}
          min={dateFrom || undefined}
          onChange={(e) => {
            setDateTo(e.currentTarget.value);
            setQuick(null);
          }}
        />
        <Button.Group>
          {QUICK_RANGES.map(([key, label]) => (
            <Button
              key={key}
              variant={quick === key ? 'filled' : 'default'}
              onClick={() => pickQuick(key)}
              aria-pressed={quick === key}
            >
              {label}
            </Button>
          ))}
        </Button.Group>
        <Select
          label="Sort"
          w={180}
          data={HISTORY_SORTS.map((s) => ({ value: s, label: HISTORY_SORT_LABELS[s] }))}
          value={sort}
          onChange={(v) => v && setSort(v as HistorySort)}
          allowDeselect={false}
        />
        <Button
          variant="subtle"
          leftSection={<IconDownload size={16} />}
          onClick={() =>
            downloadTradesCsv(accountId, { ...range, sort }).catch(() =>
              notifications.show({ color: 'red', message: 'Failed to export trades. Please try again.' }),
            )
          }
        >
          Export CSV
        </Button>
        <Button
          variant="light"
          leftSection={<IconFileImport size={16} />}
          onClick={() => setImporting(true)}
          disabled={!accountId}
        >
          Import statement
        </Button>
      </Group>
      <ImportStatementModal accountId={accountId} opened={importing} onClose={() => setImporting(false)} />

      <StatsStrip stats={stats.data} loading={stats.isLoading} />

      {trades.isLoading ? (
        <Text c="dimmed">{TRADE_HISTORY_TEXT.loading}</Text>
      ) : trades.isError ? (
        <Alert color="red" variant="light">
          {TRADE_HISTORY_TEXT.failed}
        </Alert>
      ) : rows.length === 0 ? (
        <Text c="dimmed">{TRADE_HISTORY_TEXT.empty}</Text>
      ) : (
        <TradeList
          rows={rows}
          hasNextPage={trades.hasNextPage}
          isFetchingNextPage={trades.isFetchingNextPage}
          fetchNextPage={trades.fetchNextPage}
        />
      )}
    </Stack>
  );
}
