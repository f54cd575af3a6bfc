import { Badge, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { formatMoney, type TradePlan } from '@tradedesk/domain';
import type { computePlan } from './tradePlan';
import { formatLots } from './trades.api';

/** "Trade Calculations": the plan's figures, or why there is no plan yet. */
export function TradeCalculations({
  result,
  currency,
  freeMargin = null,
}: {
  result: ReturnType<typeof computePlan>;
  currency: string;
  freeMargin?: number | null;
}) {
  const money = (v: number) => formatMoney(v, currency);
  return (
    <Card withBorder padding="sm" component="section" aria-label="Trade calculations">
      <Title order={5} mb="xs">
        Trade Calculations
      </Title>
      {!result.ok ? (
        <Text size="sm" c={result.waiting ? 'dimmed' : 'red'}>
          {result.message}
        </Text>
      ) : (
        <PlanFigures plan={result.plan} entry={result.entry} money={money} freeMargin={freeMargin} />
      )}
    </Card>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} size="sm" data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}

function PlanFigures({
  plan,
  entry,
  money,
  freeMargin,
}: {
  plan: TradePlan;
  entry: number;
  money: (v: number) => string;
  freeMargin: number | null;
}) {
  const p5 = (v: number) => v.toFixed(5);
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Figure label="Lot Size" value={formatLots(plan.volume)} testId="calc-lot-size" />
        <Figure label="Entry" value={p5(entry)} />
        <Figure
          label="Stop Loss"
          value={`${p5(plan.stopLoss.price)} (${plan.stopLoss.pips.toFixed(1)} pips)`}
        />
        <Figure
          label="Take Profit"
          value={plan.takeProfit ? p5(plan.takeProfit.price) : `${plan.targets?.length ?? 0} targets`}
        />
        <Figure
          label="Risk"
          value={`${money(plan.projectedLoss)} (−1R, ${plan.riskPercentActual.toFixed(2)}%)`}
          testId="calc-risk"
        />
        <Figure
          label="Reward"
          value={`${money(plan.projectedProfit)} (+${plan.rrRatio.toFixed(2)}R)`}
          testId="calc-reward"
        />
        <Figure label="RR Ratio" value={plan.rrRatio.toFixed(2)} />
        {plan.margin !== null && <Figure label="Margin" value={money(plan.margin)} testId="calc-margin" />}
        {freeMargin !== null && (
          <Figure label="Free Margin" value={money(freeMargin)} testId="calc-free-margin" />
        )}
      </SimpleGrid>
      {plan.marginFits === false && (
        <Badge color="red" variant="light" style={{ textTransform: 'none' }}>
          The margin this trade needs is above the free margin.
        </Badge>
      )}
      {plan.targets && (
        <Stack gap={2}>
          {plan.targets.map((t) => (
            <Text key={t.rank} size="xs">
              Target {t.rank}: {formatLots(t.volume)} lots at {p5(t.price)} ({t.r_multiple.toFixed(2)}R)
            </Text>
          ))}
        </Stack>
      )}
      {plan.lot.reason && (
        <Badge
          color={plan.lot.exceedsRequestedRisk ? 'orange' : 'gray'}
          variant="light"
          style={{ textTransform: 'none' }}
        >
          {plan.lot.reason}
        </Badge>
      )}
    </Stack>
  );
}
