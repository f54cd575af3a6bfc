import { Stack, Text, Title } from '@mantine/core';
import { InstrumentsPanel } from './InstrumentsPanel';
import { JobForm } from './JobForm';
import { JobsList } from './JobsList';

/** /analysis: instruments, the job form and the submitted jobs (spec: Analysis page). */
export function AnalysisPage() {
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Historical Data Analysis
      </Title>
      <Text c="dimmed">
        Add an instrument to download its history, then ask a question of it. Methods: trend continuation
        across sessions, direction after closes against VWAP, and ATR target/stop odds.
      </Text>
      <InstrumentsPanel />
      <JobForm />
      <JobsList />
    </Stack>
  );
}
