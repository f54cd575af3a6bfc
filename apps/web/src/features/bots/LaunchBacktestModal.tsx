import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { backtestRun } from '@tradedesk/contract';
import { useNavigate } from 'react-router';
import { api } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { BOT_TEXT } from './bots.api';

/** Launch Backtest: the data window's start and end. */
export function LaunchBacktestModal({
  versionId,
  configId,
  onClose,
}: {
  versionId: string;
  configId: string | null;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [error, setError] = useState<string | null>(null);
  const launch = useMutation({
    mutationFn: () =>
      api.post(
        '/bots/backtests/launch/',
        {
          bot_version_id: versionId,
          backtest_config_id: configId,
          data_window_start: new Date(`${start}T00:00:00Z`).toISOString(),
          data_window_end: new Date(`${end}T00:00:00Z`).toISOString(),
        },
        { schema: backtestRun },
      ),
    onSuccess: (run) => void navigate(`/backtest-runs/${run.id}`),
    onError: (e) => setError(`${BOT_TEXT.launch} ${errorMessage(e, '')}`.trim()),
  });
  return (
    <Modal opened={configId !== null} onClose={onClose} title="Launch Backtest">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!start || !end) return setError(BOT_TEXT.datesRequired);
          setError(null);
          launch.mutate();
        }}
      >
        <Stack gap="sm">
          <TextInput
            type="date"
            label="Data window start"
            value={start}
            onChange={(e) => setStart(e.currentTarget.value)}
          />
          <TextInput
            type="date"
            label="Data window end"
            value={end}
            onChange={(e) => setEnd(e.currentTarget.value)}
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={launch.isPending}>
              Launch
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
