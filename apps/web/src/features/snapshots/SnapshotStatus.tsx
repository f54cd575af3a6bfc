import { useEffect, useRef } from 'react';
import { Group, Loader, Text } from '@mantine/core';
import { JOURNAL_TEXT } from '../journal/journal.api';
import { useSnapshotTask } from './snapshotConfigs.api';

/**
 * A snapshot task of a journal entry: "generating" while the server draws, then `onDone` once so the
 * journal is read again and its new images show; a failure says why in the spec's words.
 */
export function SnapshotStatus({ taskId, onDone }: { taskId: string; onDone: () => void }) {
  const task = useSnapshotTask(taskId);
  const status = task.data?.status;
  const told = useRef(false);
  useEffect(() => {
    if (status === 'COMPLETED' && !told.current) {
      told.current = true;
      onDone();
    }
  }, [status, onDone]);
  if (status === 'COMPLETED') return null;
  if (status === 'FAILED')
    return (
      <Text size="sm" c="orange" role="status">
        {JOURNAL_TEXT.snapshotFailed(task.data?.error ?? 'unknown error')}
      </Text>
    );
  const count = task.data?.timeframes.length;
  return (
    <Group gap="xs" role="status" aria-label="Generating chart snapshots">
      <Loader size="xs" />
      <Text size="sm" c="dimmed">
        Generating chart snapshots{count ? ` (${task.data?.attachments.length ?? 0} of ${count})` : ''}…
      </Text>
    </Group>
  );
}
