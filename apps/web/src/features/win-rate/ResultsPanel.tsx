import { Alert, Badge, Group, Progress, Stack, Text } from '@mantine/core';
import type { WinRateResult } from '@tradedesk/domain';

/** Spec section 9: green under 60 %, amber under 80 %, else red. */
export function winRateColor(pct: number): 'teal' | 'orange' | 'red' {
  if (pct < 60) return 'teal';
  if (pct < 80) return 'orange';
  return 'red';
}

const pct = (fraction: number) => `${(fraction * 100).toFixed(2)}%`;
const rr = (v: number) => `${v.toFixed(2)}R`;

export const BREAKEVEN_ASSUMPTION =
  'Assumption: a winner that reaches target k closes targets 1 to k at their R multiples and the rest of the position at breakeven (0R), the usual practice once the first target is hit; a loser loses 1R. Results compound: each win multiplies equity by (1 + risk × average RR), each loss by (1 − risk).';

export function ResultsPanel({ result }: { result: WinRateResult }) {
  if (!result.valid) {
    return (
      <Alert color="gray" variant="light" title="Results are hidden" role="status">
        Fix the inputs marked in red to see the minimum win rate.
      </Alert>
    );
  }
  const color = result.minWinRate === null ? 'red' : winRateColor(result.minWinRate * 100);
  return (
    <Stack gap="md">
      <Stack gap={2}>
        <Text size="sm" c="dimmed" id="min-win-rate-label">
          Minimum win rate
        </Text>
        {result.minWinRate === null ? (
          <>
            <Text fz={32} fw={700} c="red" aria-labelledby="min-win-rate-label" data-testid="min-win-rate">
              Out of reach
            </Text>
            <Text size="sm" c="red">
              Even winning every trade does not reach the growth goal with these settings. Raise the risk, the
              R multiples or the number of trades, or lower the goal.
            </Text>
          </>
        ) : (
          <Group gap="sm" align="baseline">
            <Text fz={32} fw={700} c={color} aria-labelledby="min-win-rate-label" data-testid="min-win-rate">
              {pct(result.minWinRate)}
            </Text>
            <Badge color={color} variant="light">
              {color === 'teal' ? 'Comfortable' : color === 'orange' ? 'Demanding' : 'Very demanding'}
            </Badge>
          </Group>
        )}
      </Stack>
      <Group justify="space-between">
        <Text size="sm">Average RR of a winner</Text>
        <Text fw={600} data-testid="average-rr">
          {rr(result.averageRR)}
        </Text>
      </Group>
      <Stack gap={6}>
        <Text size="sm" fw={500}>
          Contributions
        </Text>
        {result.contributions.map((c, i) => (
          <Stack gap={2} key={i}>
            <Group justify="space-between">
              <Text size="sm">Target {i + 1}</Text>
              <Text size="sm" fw={600} data-testid={`contribution-${i + 1}`}>
                {rr(c)}
              </Text>
            </Group>
            <Progress
              value={result.averageRR > 0 ? (c / result.averageRR) * 100 : 0}
              size="sm"
              aria-label={`Target ${i + 1} share of the average RR`}
            />
          </Stack>
        ))}
      </Stack>
    </Stack>
  );
}
