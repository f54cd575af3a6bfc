import { useMemo, useState } from 'react';
import { Alert, Card, Grid, Stack, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { computeWinRate, winRateChart, winRateReach } from '@tradedesk/domain';
import type { ProfitProfile } from '@tradedesk/contract';
import { PlanInputs } from './PlanInputs';
import { ProfileCards } from './ProfileCards';
import { BREAKEVEN_ASSUMPTION, ResultsPanel } from './ResultsPanel';
import { ScenariosCard } from './ScenariosCard';
import { SplitsEditor } from './SplitsEditor';
import { useProfitProfiles } from './winRate.api';
import {
  DEFAULT_FORM,
  formFromLink,
  fromScenarioInputs,
  reachHint,
  splitsFromProfile,
  toDomainInputs,
  toScenarioInputs,
  type WinRateForm,
} from './winRateForm';
import { WinRateChart } from './WinRateChart';

/** The required hit-rate calculator: plan inputs, results, risk chart, scenarios and profit profiles. */
export function WinRatePage() {
  const [params] = useSearchParams();
  // An analysis can open the calculator with its reward and observed hit rate filled in.
  const [linked] = useState(() => formFromLink(params));
  const [form, setForm] = useState<WinRateForm>(linked?.form ?? DEFAULT_FORM);
  const [filledFrom, setFilledFrom] = useState<string | null>(null);
  const profiles = useProfitProfiles();

  const inputs = useMemo(() => toDomainInputs(form), [form]);
  const result = useMemo(() => computeWinRate(inputs), [inputs]);
  // Out of reach at the trader's risk, the chart stretches to where it becomes reachable (domain).
  const chart = useMemo(() => winRateChart(inputs), [inputs]);
  const hint = useMemo(() => reachHint(winRateReach(inputs), inputs), [inputs]);
  const issues = result.valid ? [] : result.issues;

  const fillFromProfile = (p: ProfitProfile) => {
    setForm((f) => ({ ...f, splits: splitsFromProfile(p, f.splits) }));
    setFilledFrom(p.id);
  };

  return (
    <Stack gap="lg" maw={1200}>
      <Stack gap={4}>
        <Title order={1} size="h2">
          Win-Rate Calculator
        </Title>
        <Text c="dimmed">
          The minimum share of winning trades your plan needs to reach its growth goal, with partial targets
          and compounding.
        </Text>
      </Stack>
      {linked && (
        <Alert color="blue" variant="light" title="From an ATR scenario analysis">
          One target at {linked.form.splits.R1} R; the analysis observed a hit rate of{' '}
          {linked.observedHitRate} %. Compare it with the required hit rate below.
        </Alert>
      )}

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg">
            <Card withBorder padding="lg" component="section" aria-labelledby="wr-plan">
              <Title order={3} size="h4" id="wr-plan" mb="sm">
                Plan
              </Title>
              <PlanInputs
                form={form}
                issues={issues}
                onChange={(patch) => setForm((f) => ({ ...f, ...patch }))}
              />
            </Card>
            <Card withBorder padding="lg" component="section" aria-labelledby="wr-splits">
              <Title order={3} size="h4" id="wr-splits" mb="sm">
                Partial targets
              </Title>
              <SplitsEditor
                splits={form.splits}
                issues={issues}
                profiles={profiles.data}
                profilesLoading={profiles.isLoading}
                filledFrom={filledFrom}
                onFillFromProfile={fillFromProfile}
                onChange={(key, value) => {
                  setForm((f) => ({ ...f, splits: { ...f.splits, [key]: value } }));
                  if (!key.startsWith('q')) setFilledFrom(null);
                }}
              />
            </Card>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <Card withBorder padding="lg" component="section" aria-labelledby="wr-results" aria-live="polite">
              <Title order={3} size="h4" id="wr-results" mb="sm">
                Results
              </Title>
              <ResultsPanel result={result} />
              <Text size="xs" c="dimmed" mt="md">
                {BREAKEVEN_ASSUMPTION}
              </Text>
            </Card>
            <Card withBorder padding="lg" component="section" aria-labelledby="wr-scenarios">
              <Title order={3} size="h4" id="wr-scenarios" mb="sm">
                Scenarios
              </Title>
              <ScenariosCard
                current={result.valid ? toScenarioInputs(form) : null}
                onLoad={(s) => {
                  setForm(fromScenarioInputs(s.inputs));
                  setFilledFrom(null);
                }}
              />
            </Card>
          </Stack>
        </Grid.Col>
      </Grid>

      <Card withBorder padding="lg" component="section" aria-labelledby="wr-chart">
        <Title order={3} size="h4" id="wr-chart" mb="sm">
          Minimum win rate by risk per trade
        </Title>
        <WinRateChart points={chart.points} hint={hint} />
      </Card>

      <Card withBorder padding="lg" component="section">
        <ProfileCards splits={form.splits} onUse={fillFromProfile} />
      </Card>
    </Stack>
  );
}
