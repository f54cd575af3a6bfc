import { Alert, Card, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { currencyDecimals } from '@tradedesk/domain';
import type { AccountSummary } from '@tradedesk/contract';
import { errorMessage } from '../../app/errors';
import { PNL_COLORS } from '../../app/theme';
import { compactMoney, fullMoney, useAccountSummary } from './accountSummary.api';

export const STRIP_TEXT = {
  failed: 'Failed to fetch the account figures',
  noAccount: 'Select an account to see its balance, equity and margin.',
} as const;

interface Figure {
  label: string;
  value: (s: AccountSummary) => number | null;
  /** P/L figures carry a sign and the gain/loss colour. */
  pl?: boolean;
  percent?: boolean;
}

const FIGURES: Figure[] = [
  { label: 'Balance', value: (s) => s.balance },
  { label: 'Equity', value: (s) => s.equity },
  { label: 'Margin', value: (s) => s.margin },
  { label: 'Free margin', value: (s) => s.free_margin },
  { label: 'Margin level', value: (s) => s.margin_level, percent: true },
  { label: "Today's realised P/L", value: (s) => s.realised_pl_today, pl: true },
  { label: 'Open P/L', value: (s) => s.open_pl, pl: true },
];

function FigureTile({ figure, summary }: { figure: Figure; summary: AccountSummary | undefined }) {
  const value = summary ? figure.value(summary) : undefined;
  const decimals = summary ? currencyDecimals(summary.currency) : 2;
  let text = '—';
  let title: string | undefined;
  if (summary && value !== undefined && value !== null) {
    if (figure.percent) text = `${value.toFixed(2)} %`;
    else {
      text = compactMoney(value, summary.currency, decimals, figure.pl);
      title = fullMoney(value, summary.currency, decimals);
    }
  }
  const color = figure.pl && value ? (value > 0 ? PNL_COLORS.up : PNL_COLORS.down) : undefined;
  return (
    <div data-figure={figure.label}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} lh={1.3}>
        {figure.label}
      </Text>
      {summary ? (
        <Text
          fw={700}
          fz="sm"
          c={color}
          title={title}
          ff="monospace"
          lh={1.4}
          style={{ whiteSpace: 'nowrap' }}
        >
          {text}
        </Text>
      ) : (
        <Skeleton height={20} mt={4} width="70%" />
      )}
    </div>
  );
}

/**
 * The account's figures above the chart: balance, equity, margin, free margin, margin level and the
 * day's realised and open P/L, from the server's summary (asked again every 2 s). The figures keep
 * showing while a refresh fails, with the reason above them.
 */
export function AccountStrip({ accountId }: { accountId: string | null }) {
  const summary = useAccountSummary(accountId);
  if (!accountId) {
    return (
      <Card withBorder padding="sm">
        <Text c="dimmed" size="sm">
          {STRIP_TEXT.noAccount}
        </Text>
      </Card>
    );
  }
  return (
    <Card withBorder padding="sm" component="section" aria-label="Account figures">
      {summary.isError && (
        <Alert color="red" variant="light" role="alert" mb="xs" py={6}>
          {errorMessage(summary.error, STRIP_TEXT.failed)}
        </Alert>
      )}
      {summary.isError && !summary.data ? null : (
        <SimpleGrid cols={{ base: 2, xs: 3, sm: 4, xl: 7 }} spacing="md" verticalSpacing="xs" aria-live="off">
          {FIGURES.map((f) => (
            <FigureTile key={f.label} figure={f} summary={summary.data} />
          ))}
        </SimpleGrid>
      )}
    </Card>
  );
}
