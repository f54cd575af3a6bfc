import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import {
  IconArrowDownRight,
  IconArrowsDiff,
  IconArrowUpRight,
  IconHelp,
  IconSparkles,
} from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import {
  NEWS_MESSAGES,
  NEWS_TEXT_MAX,
  newsAnalysis,
  type NewsAnalysis,
  type NewsDirection,
  type NewsProviderName,
} from '@tradedesk/contract';
import { api } from '../../app/api';
import { ApiError, serverMessage } from '../../app/errors';

/** Colour and a word and an arrow for each direction, so colour is never the only signal. */
const DIRECTIONS: Record<NewsDirection, { color: string; label: string; icon: typeof IconArrowUpRight }> = {
  bullish: { color: 'teal', label: 'Bullish', icon: IconArrowUpRight },
  bearish: { color: 'red', label: 'Bearish', icon: IconArrowDownRight },
  mixed: { color: 'orange', label: 'Mixed', icon: IconArrowsDiff },
  unclear: { color: 'gray', label: 'Unclear', icon: IconHelp },
};

const PROVIDER_NAMES: Record<Exclude<NewsProviderName, 'offline'>, string> = {
  gemini: 'Gemini',
  openai: 'OpenAI-compatible model',
  ollama: 'Ollama',
};

function providerText(a: Pick<NewsAnalysis, 'provider' | 'model'>): string {
  return a.provider === 'offline' ? 'offline analysis' : `${PROVIDER_NAMES[a.provider]} (${a.model})`;
}

type Failure = { kind: 'error' | 'limit'; text: string };

/** Spec section 8: the server's message as "Error: ...", else the generic text; limits in their own words. */
function failureOf(err: unknown): Failure {
  if (err instanceof ApiError) {
    const msg = serverMessage(err.body);
    if ((err.status === 429 || err.status === 503) && msg) return { kind: 'limit', text: msg };
    if (msg) return { kind: 'error', text: `Error: ${msg}` };
  }
  return { kind: 'error', text: NEWS_MESSAGES.failed };
}

function DirectionBadge({ direction }: { direction: NewsDirection }) {
  const d = DIRECTIONS[direction];
  return (
    <Badge
      color={d.color}
      variant="light"
      style={{ overflow: 'visible' }}
      miw="fit-content"
      leftSection={<d.icon size={14} aria-hidden />}
    >
      {d.label}
    </Badge>
  );
}

function AnalysisResult({ result }: { result: NewsAnalysis }) {
  return (
    <Stack gap="sm" aria-label="AI Analysis" role="region">
      <Group justify="space-between" align="center">
        <Title order={4}>AI Analysis</Title>
        <Badge variant="outline" tt="none" color={result.provider === 'offline' ? 'gray' : 'blue'}>
          {providerText(result)}
        </Badge>
      </Group>
      {result.note && (
        <Alert color="yellow" variant="light">
          {result.note}
        </Alert>
      )}
      <Text>{result.summary}</Text>
      {result.impact.length ? (
        <Table.ScrollContainer minWidth={560}>
          <Table striped withTableBorder aria-label="Market impact">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Instrument</Table.Th>
                <Table.Th w={130}>Direction</Table.Th>
                <Table.Th w={110}>Confidence</Table.Th>
                <Table.Th>Why</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.impact.map((i) => (
                <Table.Tr key={i.instrument}>
                  <Table.Td fw={600}>{i.instrument}</Table.Td>
                  <Table.Td>
                    <DirectionBadge direction={i.direction} />
                  </Table.Td>
                  <Table.Td>{Math.round(i.confidence * 100)}%</Table.Td>
                  <Table.Td>
                    <Text size="sm">{i.rationale}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text size="sm" c="dimmed">
          The text names no instrument the analysis knows.
        </Text>
      )}
    </Stack>
  );
}

/** The landing page's news box: paste text, Analyze News, then AI Analysis or an error. */
export function NewsAnalyzer() {
  const [text, setText] = useState('');
  const [empty, setEmpty] = useState(false);
  const analyze = useMutation({
    mutationFn: (body: { text: string }) => api.post('/news/analyze/', body, { schema: newsAnalysis }),
  });
  const failure = analyze.isError ? failureOf(analyze.error) : null;

  function submit() {
    if (!text.trim()) {
      setEmpty(true);
      analyze.reset();
      return;
    }
    setEmpty(false);
    analyze.mutate({ text });
  }

  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Group gap="xs">
          <IconSparkles size={20} />
          <Title order={3}>AI news analysis</Title>
        </Group>
        <Textarea
          label="News article"
          placeholder="Paste a news article or headline here"
          autosize
          minRows={4}
          maxRows={16}
          maxLength={NEWS_TEXT_MAX}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
        />
        <Group>
          <Button onClick={submit} loading={analyze.isPending}>
            Analyze News
          </Button>
          {analyze.isPending && (
            <Group gap="xs" role="status">
              <Loader size="xs" />
              <Text size="sm" c="dimmed">
                Analysing the news…
              </Text>
            </Group>
          )}
        </Group>
        {empty && (
          <Alert color="red" variant="light" role="alert">
            {NEWS_MESSAGES.empty}
          </Alert>
        )}
        {failure && (
          <Alert color={failure.kind === 'limit' ? 'orange' : 'red'} variant="light" role="alert">
            {failure.text}
          </Alert>
        )}
        {analyze.isSuccess && <AnalysisResult result={analyze.data} />}
      </Stack>
    </Card>
  );
}
