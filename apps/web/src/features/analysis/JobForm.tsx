import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ANALYSIS_MESSAGES,
  ANALYSIS_TIMEFRAMES,
  ANALYSIS_TYPES,
  type AnalysisJob,
} from '@tradedesk/contract';
import { errorMessage } from '../../app/errors';
import { JOBS_KEY, submitAnalysisJob, useInstruments } from './analysis.api';
import { ANALYSIS_TEXT, TYPE_LABEL } from './analysis.texts';

/** Submit-analysis-job form: defaults M15 and VWAP_CONDITIONAL (spec section 9). */
export function JobForm() {
  const qc = useQueryClient();
  const instruments = useInstruments();
  const [symbol, setSymbol] = useState<string | null>(null);
  const [type, setType] = useState<string | null>('VWAP_CONDITIONAL');
  const [timeframe, setTimeframe] = useState<string | null>('M15');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const submit = useMutation({
    mutationFn: submitAnalysisJob,
    onSuccess: async (job: AnalysisJob) => {
      setError(null);
      try {
        await qc.refetchQueries({ queryKey: JOBS_KEY }, { throwOnError: true });
        setNotice(`Job ${job.job_id.slice(0, 8)} submitted.`);
      } catch {
        setNotice(ANALYSIS_TEXT.refreshAfterSubmitFailed);
      }
    },
    onError: (err) => {
      setNotice(null);
      setError(ANALYSIS_TEXT.submissionFailed(errorMessage(err, ANALYSIS_TEXT.submitJob)));
    },
  });

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setNotice(null);
    if (!symbol || !type || !timeframe || !start || !end)
      return setError(ANALYSIS_MESSAGES.allFieldsRequired);
    if (end <= start) return setError(ANALYSIS_MESSAGES.endAfterStart);
    setError(null);
    submit.mutate({
      instrument_symbol: symbol,
      analysis_type: type,
      target_timeframe: timeframe,
      start_date: start,
      end_date: end,
    });
  }

  const options = (instruments.data ?? []).map((i) => ({
    value: i.symbol,
    label: i.data_status === 'AVAILABLE' ? i.symbol : `${i.symbol} (${ANALYSIS_TEXT.dataNotReady})`,
    disabled: i.data_status !== 'AVAILABLE',
  }));
  return (
    <Card withBorder padding="md">
      <form onSubmit={onSubmit} noValidate aria-label="Submit analysis job">
        <Stack gap="sm">
          <Title order={4}>Submit Analysis Job</Title>
          <Group grow align="flex-end" wrap="wrap">
            <Select
              label="Instrument"
              placeholder="Choose an instrument"
              data={options}
              value={symbol}
              onChange={setSymbol}
            />
            <Select
              label="Analysis type"
              data={ANALYSIS_TYPES.map((t) => ({ value: t, label: TYPE_LABEL[t] }))}
              value={type}
              onChange={setType}
              allowDeselect={false}
            />
            <Select
              label="Timeframe"
              data={[...ANALYSIS_TIMEFRAMES]}
              value={timeframe}
              onChange={setTimeframe}
              allowDeselect={false}
            />
          </Group>
          <Group grow align="flex-end">
            <TextInput
              label="Start date"
              type="date"
              value={start}
              onChange={(e) => setStart(e.currentTarget.value)}
            />
            <TextInput
              label="End date"
              type="date"
              value={end}
              onChange={(e) => setEnd(e.currentTarget.value)}
            />
          </Group>
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          {notice && (
            <Alert color="blue" variant="light">
              {notice}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={submit.isPending}>
              Submit Analysis
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
