import { Alert, Badge, Card, Loader, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { AnalysisJob } from '@tradedesk/contract';
import { useJobStatus, useJobs } from './analysis.api';
import { ANALYSIS_TEXT, STATUS_COLOR, STATUS_LABEL, TYPE_LABEL, isFinished, shortId } from './analysis.texts';

/** A job's row: an unfinished job polls its own status too, and says so when that lookup fails. */
function JobRow({ job }: { job: AnalysisJob }) {
  const polled = useJobStatus(job.job_id, !isFinished(job.status));
  const status = polled.isError ? 'UNKNOWN' : (polled.data?.status ?? job.status);
  const progress = polled.data?.progress ?? job.progress;
  return (
    <Table.Tr data-testid={`job-${job.job_id}`}>
      <Table.Td>
        <Link to={`/analysis/${job.job_id}`}>{shortId(job.job_id)}</Link>
      </Table.Td>
      <Table.Td>
        <Badge color={STATUS_COLOR[status]} variant="light">
          {STATUS_LABEL[status]}
        </Badge>{' '}
        {!isFinished(status) && status !== 'UNKNOWN' && (
          <Text span size="xs" c="dimmed">
            {progress}%
          </Text>
        )}
        {polled.isError && (
          <Text size="xs" c="red">
            {ANALYSIS_TEXT.updateStatusFailed}
          </Text>
        )}
      </Table.Td>
      <Table.Td>{TYPE_LABEL[job.analysis_type]}</Table.Td>
      <Table.Td>{job.instrument_symbol}</Table.Td>
      <Table.Td>{job.target_timeframe}</Table.Td>
      <Table.Td>{new Date(job.created_at).toLocaleString()}</Table.Td>
      <Table.Td>{new Date(polled.data?.updated_at ?? job.updated_at).toLocaleString()}</Table.Td>
    </Table.Tr>
  );
}

/** Submitted jobs, polled every 5 s, in a 600 px scroll area (spec section 9). */
export function JobsList() {
  const jobs = useJobs();
  return (
    <Card withBorder padding="md">
      <Stack gap="sm">
        <Title order={4}>Submitted Jobs</Title>
        {jobs.isLoading ? (
          <Loader size="sm" />
        ) : jobs.isError ? (
          <Alert color="red" variant="light">
            {ANALYSIS_TEXT.loadJobsFailed}
          </Alert>
        ) : (jobs.data ?? []).length === 0 ? (
          <Text c="dimmed" size="sm">
            No analysis jobs yet.
          </Text>
        ) : (
          <ScrollArea h={600}>
            <Table striped aria-label="Submitted jobs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Job</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Instrument</Table.Th>
                  <Table.Th>Timeframe</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>Updated</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(jobs.data ?? []).map((j) => (
                  <JobRow key={j.job_id} job={j} />
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
      </Stack>
    </Card>
  );
}
