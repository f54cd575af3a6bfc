import { useEffect, useState } from 'react';
import { Alert, Button, Group, NumberInput, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { backtestConfig } from '@tradedesk/contract';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { BOT_TEXT, parseJsonObject, useConfig } from './bots.api';

/** Backtest config form, create (`…/backtest-configs/new`) or edit (`…/backtest-configs/{configId}`). */
export function BacktestConfigPage() {
  const { botId = '', versionId = '', configId } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const existing = useConfig(configId);
  const [label, setLabel] = useState('');
  const [risk, setRisk] = useState('{}');
  const [ms, setMs] = useState<number | string>(0);
  const [r, setR] = useState<number | string>(0);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (existing.data) {
      setLabel(existing.data.label);
      setRisk(JSON.stringify(existing.data.risk_json, null, 2));
      setMs(existing.data.slippage_ms);
      setR(existing.data.slippage_r);
    }
  }, [existing.data]);
  const back = `/bots/${botId}/versions/${versionId}`;
  const save = useMutation({
    mutationFn: (riskJson: Record<string, unknown>) => {
      const body = {
        bot_version: versionId,
        label,
        risk_json: riskJson,
        slippage_ms: parseInt(String(ms), 10),
        slippage_r: parseFloat(String(r)),
      };
      return configId
        ? api.put(`/bots/backtest-configs/${configId}/`, body, { schema: backtestConfig })
        : api.post('/bots/backtest-configs/', body, { schema: backtestConfig });
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['bots', 'version', versionId, 'configs'] });
      void navigate(back);
    },
    onError: (e) => setError(`${BOT_TEXT.saveConfig} ${errorMessage(e, '')}`.trim()),
  });
  return (
    <Stack gap="md" maw={640}>
      <Title order={1} size="h2">
        {configId ? 'Edit Backtest Config' : 'New Backtest Config'}
      </Title>
      {existing.isError && <Alert color="red">{BOT_TEXT.loadConfig}</Alert>}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!label.trim() || !risk.trim() || ms === '' || r === '')
            return setError('All fields are required.');
          const parsed = parseJsonObject(risk);
          if (!parsed) return setError(BOT_TEXT.riskJson);
          setError(null);
          save.mutate(parsed);
        }}
      >
        <Stack gap="sm">
          <TextInput label="Label" value={label} onChange={(e) => setLabel(e.currentTarget.value)} />
          <Textarea
            label="Risk JSON"
            value={risk}
            onChange={(e) => setRisk(e.currentTarget.value)}
            autosize
            minRows={4}
            ff="monospace"
          />
          <NumberInput label="Slippage (ms)" value={ms} onChange={setMs} allowDecimal={false} min={0} />
          <NumberInput label="Slippage (R)" value={r} onChange={setR} step={0.01} decimalScale={4} min={0} />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => void navigate(back)}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save Configuration
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
