import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Divider,
  FileInput,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
  useComputedColorScheme,
} from '@mantine/core';
import { notifications } from '../../app/notify';
import { IconPhoto } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { JOURNAL_MESSAGES } from '@tradedesk/contract';
import { errorMessage } from '../../app/errors';
import { addPendingSnapshot } from '../snapshots/snapshotConfigs.api';
import {
  addSymbol,
  createJournal,
  DEFAULT_JOURNAL_ACTION,
  DEFAULT_JOURNAL_TIMEFRAME,
  DEFAULT_SNAPSHOT_SYMBOLS,
  DEFAULT_SNAPSHOT_TIMEFRAMES,
  JOURNAL_ACTIONS,
  JOURNAL_TEXT,
  JOURNAL_TIMEFRAMES,
  journalsKey,
  MAX_SNAPSHOT_TIMEFRAMES,
  requestSnapshot,
  SNAPSHOT_MESSAGES,
  SNAPSHOT_TIMEFRAMES,
  snapshotError,
  uploadAttachment,
  useSnapshotConfigs,
} from './journal.api';

const EMOTIONS = ['Calm', 'Confident', 'Neutral', 'Anxious', 'Fearful', 'Greedy', 'Frustrated', 'Impatient'];
const MARKET_CONDITIONS = ['Trending', 'Ranging', 'Volatile', 'Quiet', 'News-driven', 'Breakout', 'Reversal'];

export interface JournalTradeModalProps {
  opened: boolean;
  /** The trade this entry belongs to. */
  tradeId: string;
  /** The trade's symbol: preselected for the automated snapshot. */
  symbol?: string | null;
  defaultAction?: string;
  onClose: () => void;
  /** After the entry (and its files) were saved. */
  onSubmitted?: (journalId: string) => void;
}

/**
 * Journal This Trade: the entry's fields, images (one upload per file) and the automated-snapshot part
 * (template, symbol, up to 5 timeframes). Reused by the trade history screens for past trades.
 */
export function JournalTradeModal(props: JournalTradeModalProps) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Journal This Trade" size="lg">
      {props.opened && <JournalForm {...props} />}
    </Modal>
  );
}

function JournalForm({ tradeId, symbol, defaultAction, onClose, onSubmitted }: JournalTradeModalProps) {
  const qc = useQueryClient();
  const [action, setAction] = useState<string>(defaultAction ?? DEFAULT_JOURNAL_ACTION);
  const [timeframe, setTimeframe] = useState<string>(DEFAULT_JOURNAL_TIMEFRAME);
  const [reason, setReason] = useState('');
  const [details, setDetails] = useState('');
  const [strategyTag, setStrategyTag] = useState('');
  const [emotion, setEmotion] = useState<string | null>(null);
  const [market, setMarket] = useState<string | null>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const configs = useSnapshotConfigs(true);
  const colorScheme = useComputedColorScheme('light');
  const [configId, setConfigId] = useState<string | null>(null);
  const initialSymbols = symbol ? addSymbol(DEFAULT_SNAPSHOT_SYMBOLS, symbol) : DEFAULT_SNAPSHOT_SYMBOLS;
  const [symbols, setSymbols] = useState<string[]>(initialSymbols);
  const [snapSymbol, setSnapSymbol] = useState<string | null>(symbol ? symbol.trim().toUpperCase() : null);
  const [newSymbol, setNewSymbol] = useState('');
  const [timeframes, setTimeframes] = useState<string[]>(DEFAULT_SNAPSHOT_TIMEFRAMES);
  const [snapError, setSnapError] = useState<string | null>(null);

  const atMax = timeframes.length >= MAX_SNAPSHOT_TIMEFRAMES;

  function addNewSymbol() {
    const s = newSymbol.trim().toUpperCase();
    const next = addSymbol(symbols, s);
    setSymbols(next);
    if (s) setSnapSymbol(s);
    setNewSymbol('');
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setError(null);
    setSnapError(null);
    if (!reason.trim()) return setError(JOURNAL_MESSAGES.reasonRequired);
    const snapProblem = snapshotError(configId, snapSymbol, timeframes);
    if (snapProblem) return setSnapError(snapProblem);
    setBusy(true);
    let journalId: string;
    try {
      const created = await createJournal({
        trade: tradeId,
        action,
        trade_timeframe: timeframe,
        reason: reason.trim(),
        details: details.trim(),
        strategy_tag: strategyTag.trim(),
        emotional_state: emotion ?? '',
        market_condition: market ?? '',
      });
      journalId = created.id;
    } catch (err) {
      setBusy(false);
      return setError(errorMessage(err));
    }
    const failedFiles: string[] = [];
    for (const file of files) {
      try {
        await uploadAttachment(journalId, file);
      } catch (err) {
        failedFiles.push(`${file.name}: ${errorMessage(err)}`);
      }
    }
    if (configId && snapSymbol) {
      const asked = await requestSnapshot({
        config_id: configId,
        symbol: snapSymbol,
        timeframes,
        journal_entry_id: journalId,
        theme: colorScheme,
      });
      if ('error' in asked)
        notifications.show({
          color: 'yellow',
          message: JOURNAL_TEXT.snapshotFailed(asked.error),
          autoClose: 10_000,
        });
      else addPendingSnapshot(qc, tradeId, { taskId: asked.taskId, journalId });
    }
    await qc.invalidateQueries({ queryKey: journalsKey(tradeId) });
    setBusy(false);
    if (failedFiles.length) {
      // The entry is saved; say which images did not make it instead of closing silently.
      notifications.show({ color: 'teal', message: JOURNAL_MESSAGES.submitted });
      setFiles([]);
      setError(`Some images were not attached. ${failedFiles.join(' ')}`);
      onSubmitted?.(journalId);
      return;
    }
    notifications.show({ color: 'teal', message: JOURNAL_MESSAGES.submitted });
    onSubmitted?.(journalId);
    onClose();
  }

  const configOptions = (configs.data ?? []).map((c) => ({
    value: c.id,
    label: c.is_global ? `[Global] ${c.name}` : c.name,
  }));

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Action"
            data={[...JOURNAL_ACTIONS]}
            value={action}
            onChange={(v) => v && setAction(v)}
            allowDeselect={false}
          />
          <Select
            label="Timeframe"
            data={[...JOURNAL_TIMEFRAMES]}
            value={timeframe}
            onChange={(v) => v && setTimeframe(v)}
            allowDeselect={false}
          />
        </SimpleGrid>
        <Textarea
          label="Reason"
          withAsterisk
          value={reason}
          onChange={(e) => {
            const next = e.currentTarget.value;
            setReason(next);
            // The "reason required" error goes as soon as there is a reason; other errors stay.
            if (next.trim()) setError((prev) => (prev === JOURNAL_MESSAGES.reasonRequired ? null : prev));
          }}
          autosize
          minRows={2}
          data-autofocus
        />
        <Textarea
          label="Details"
          value={details}
          onChange={(e) => setDetails(e.currentTarget.value)}
          autosize
          minRows={2}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label="Strategy Tag"
            value={strategyTag}
            onChange={(e) => setStrategyTag(e.currentTarget.value)}
          />
          <Select label="Emotional State" data={EMOTIONS} value={emotion} onChange={setEmotion} clearable />
          <Select
            label="Market Condition"
            data={MARKET_CONDITIONS}
            value={market}
            onChange={setMarket}
            clearable
          />
        </SimpleGrid>
        <FileInput
          label="Images"
          placeholder="Attach chart screenshots"
          multiple
          clearable
          accept="image/png,image/jpeg,image/webp,image/gif"
          leftSection={<IconPhoto size={16} />}
          value={files}
          onChange={setFiles}
        />

        <Divider />
        <Title order={5}>Automated Snapshot</Title>
        {configs.isError ? (
          <Text size="sm" c="red">
            {errorMessage(configs.error, JOURNAL_TEXT.configsFailed)}
          </Text>
        ) : null}
        <Select
          label="Snapshot Template"
          placeholder={configOptions.length ? 'No automated snapshot' : 'No templates available'}
          data={configOptions}
          value={configId}
          onChange={setConfigId}
          clearable
          disabled={configOptions.length === 0}
        />
        <Group align="flex-end" wrap="wrap">
          <Select
            label="Snapshot Symbol"
            data={symbols}
            value={snapSymbol}
            onChange={setSnapSymbol}
            clearable
            searchable
            w={200}
          />
          <TextInput
            label="New Symbol"
            value={newSymbol}
            onChange={(e) => setNewSymbol(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                addNewSymbol();
              }
            }}
            w={160}
          />
          <Button variant="default" onClick={addNewSymbol}>
            Add Symbol
          </Button>
        </Group>
        <Checkbox.Group label="Snapshot Timeframes" value={timeframes} onChange={setTimeframes}>
          <Group gap="sm" mt={6}>
            {SNAPSHOT_TIMEFRAMES.map((tf) => (
              <Checkbox key={tf} value={tf} label={tf} disabled={atMax && !timeframes.includes(tf)} />
            ))}
          </Group>
        </Checkbox.Group>
        {atMax && (
          <Text size="xs" c="dimmed">
            {SNAPSHOT_MESSAGES.maxHint}
          </Text>
        )}
        {timeframes.length === 0 && (
          <Text size="xs" c="orange">
            {SNAPSHOT_MESSAGES.noneHint}
          </Text>
        )}
        {snapError && (
          <Alert color="red" variant="light" role="alert">
            {snapError}
          </Alert>
        )}
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Submit Journal
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
