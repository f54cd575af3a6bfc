import { lazy, Suspense, useEffect, useState } from 'react';
import { Alert, Button, Group, Loader, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { botVersion } from '@tradedesk/contract';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../app/api';
import { BOT_TEXT, parseJsonObject, useBot, useTemplates } from './bots.api';

const PythonEditor = lazy(() => import('./PythonEditor'));

/** Create version (`/bots/{botId}/versions/new`): strategy code, parameters JSON, optional notes. */
export function CreateVersionPage() {
  const { botId = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const botQ = useBot(botId);
  const templates = useTemplates();
  const [code, setCode] = useState<string | null>(null);
  const [params, setParams] = useState('{}');
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string | null>(null);

  // Start from the bot's template, the first time both have loaded.
  const template = templates.data?.find((t) => t.filename === botQ.data?.strategy_template);
  useEffect(() => {
    if (template && code === null) {
      setCode(template.content);
      setParams(JSON.stringify(template.default_params, null, 2));
    }
  }, [template, code]);

  const save = useMutation({
    mutationFn: (p: Record<string, unknown>) =>
      api.post(
        '/bots/versions/',
        { bot_id: botId, strategy_file_content: code, params: p, notes },
        { schema: botVersion },
      ),
    onSuccess: async (v) => {
      await qc.invalidateQueries({ queryKey: ['bots', botId, 'versions'] });
      void navigate(`/bots/${botId}/versions/${v.id}`);
    },
    onError: () => setError(BOT_TEXT.createVersion),
  });

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!code?.trim() || !params.trim()) return setError('Strategy code and parameters are required.');
    const p = parseJsonObject(params);
    if (!p) return setError(BOT_TEXT.paramsJson);
    setError(null);
    save.mutate(p);
  };

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Create Version
      </Title>
      <form onSubmit={submit}>
        <Stack gap="sm">
          <Text fw={500} size="sm">
            Strategy code (Python)
          </Text>
          <Suspense fallback={<Loader size="sm" />}>
            <PythonEditor value={code ?? ''} onChange={setCode} label="Strategy code" />
          </Suspense>
          <Textarea
            label="Parameters (JSON)"
            value={params}
            onChange={(e) => setParams(e.currentTarget.value)}
            autosize
            minRows={3}
            ff="monospace"
          />
          <Textarea
            label="Notes (optional)"
            value={notes}
            onChange={(e) => setNotes(e.currentTarget.value)}
            autosize
            minRows={2}
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => void navigate(`/bots/${botId}`)}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Create Version
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
