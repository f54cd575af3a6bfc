import {
  Alert,
  Anchor,
  Badge,
  Card,
  Group,
  Loader,
  Progress,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../app/errors';
import { fetchJobResults, fetchJobStatus, jobKey, useJobs } from './analysis.api';
import {
  ANALYSIS_TEXT,
  POLL,
  STATUS_COLOR,
  STATUS_LABEL,
  TYPE_LABEL,
  isFinished,
  shortId,
} from './analysis.texts';
import { ResultRenderer } from './ResultRenderer';

/** /analysis/{jobId}: summary, error details, Results Pending while running (polled every 3 s), results. */
export function AnalysisJobPage() {
  const { jobId = '' } = useParams();
  const jobs = useJobs();
  const status = useQuery({
    queryKey: [...jobKey(jobId), 'page-status'],
    queryFn: () => fetchJobStatus(jobId),
    refetchInterval: (q) => (q.state.data && isFinished(q.state.data.status) ? false : POLL.jobMs),
    retry: (n, err) => !(err instanceof ApiError && err.status === 404) && n < 2,
  });
  const done = status.data?.status === 'COMPLETED_SUCCESS';
  const results = useQuery({
    queryKey: [...jobKey(jobId), 'results'],
    queryFn: () => fetchJobResults(jobId),
    enabled: done,
  });
  const job = jobs.data?.find((j) => j.job_id === jobId);

  const back = (
    <Anchor component={Link} to="/analysis">
      ← Back to Analysis
    </Anchor>
  );
  // Every state of the page carries its title (one h1 per page), the error one included.
  const title = (
    <Title order={1} size="h2">
      Analysis Job {shortId(jobId)}
    </Title>
  );
  if (status.isLoading) return <Loader />;
  if (status.isError) {
    const notFound = status.error instanceof ApiError && status.error.status === 404;
    return (
      <Stack gap="md">
        {back}
        {title}
        <Alert color="red" variant="light">
          {notFound ? ANALYSIS_TEXT.jobNotFound : ANALYSIS_TEXT.loadJobFailed}
        </Alert>
      </Stack>
    );
  }
  const s = status.data!;
  const result = results.data as
    { generated_at?: unknown; analysis_display_name?: unknown; result_data?: unknown } | undefined;
  return (
    <Stack gap="md">
      {back}
      {title}
      <Card withBorder padding="md">
        <Table aria-label="Job summary">
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w="30%">Status</Table.Th>
              <Table.Td>
                <Group gap="xs">
                  <Badge color={STATUS_COLOR[s.status]} variant="light">
                    {STATUS_LABEL[s.status]}
                  </Badge>
                  <Text size="sm">{s.progress}%</Text>
                </Group>
              </Table.Td>
            </Table.Tr>
            {job && (
              <>
                <Table.Tr>
                  <Table.Th>Analysis type</Table.Th>
                  <Table.Td>{TYPE_LABEL[job.analysis_type]}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Instrument</Table.Th>
                  <Table.Td>{job.instrument_symbol}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Timeframe</Table.Th>
                  <Table.Td>{job.target_timeframe}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Period (UTC)</Table.Th>
                  <Table.Td>
                    {job.start_date} – {job.end_date}
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Created</Table.Th>
                  <Table.Td>{new Date(job.created_at).toLocaleString()}</Table.Td>
                </Table.Tr>
              </>
            )}
            <Table.Tr>
              <Table.Th>Updated</Table.Th>
              <Table.Td>{new Date(s.updated_at).toLocaleString()}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Card>
      {s.status === 'COMPLETED_FAIL' && (
        <Alert color="red" variant="light" title="Error details">
          {s.error_message ?? 'No details were given.'}
        </Alert>
      )}
      {!isFinished(s.status) && (
        <Card withBorder padding="md">
          <Stack gap="xs">
            <Title order={4}>Results Pending</Title>
            <Text size="sm">
              {STATUS_LABEL[s.status]} ({s.progress}%). This page refreshes until the job finishes.
            </Text>
            <Progress value={s.progress} animated aria-label="Job progress" />
          </Stack>
        </Card>
      )}
      {done &&
        (results.isLoading ? (
          <Loader />
        ) : results.isError ? (
          <Alert color="red" variant="light">
            {errorMessage(results.error, ANALYSIS_TEXT.fetchResults)}
          </Alert>
        ) : (
          <Stack gap="md">
            <Title order={3}>
              {typeof result?.analysis_display_name === 'string' ? result.analysis_display_name : 'Results'}
            </Title>
            {typeof result?.generated_at === 'string' && (
              <Text size="sm" c="dimmed">
                Generated at {new Date(result.generated_at).toLocaleString()}
              </Text>
            )}
            <ResultRenderer resultData={result?.result_data} />
          </Stack>
        ))}
    </Stack>
  );
}
