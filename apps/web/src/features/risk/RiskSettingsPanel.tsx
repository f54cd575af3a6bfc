import { useEffect, useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  NumberInput,
  type NumberInputProps,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '../../app/notify';
import { IconLock, IconShieldCheck } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import {
  COOLDOWN_PATTERN,
  RISK_SETTINGS_LOCK_DAYS,
  RISK_SETTINGS_MESSAGES,
  type RiskSettings,
  type RiskSettingsUpdate,
} from '@tradedesk/contract';
import { errorMessage } from '../../app/errors';
import {
  patchDefaultProfile,
  putRiskSettings,
  riskSettingsKey,
  useProfitProfiles,
  useRiskSettings,
} from './risk.api';

type Num = number | string;

interface FormState {
  max_daily_loss: Num;
  risk_percent: Num;
  max_trade_risk: Num;
  max_open_positions: Num;
  enforce_cooldowns: boolean;
  consecutive_loss_limit: Num;
  cooldown_period: string;
  max_lot_size: Num;
  max_open_trades_same_symbol: Num;
}

type NumberKey = Exclude<keyof FormState, 'enforce_cooldowns' | 'cooldown_period'>;

const PERCENT: NumberInputProps = { min: 0, max: 100, decimalScale: 2 };
const COUNT: NumberInputProps = { min: 0, allowDecimal: false };
/** The numeric limits in the order they show; the last one goes after the Enforce Cooldowns switch. */
const NUMBER_FIELDS: ReadonlyArray<{ key: NumberKey; label: string; input: NumberInputProps }> = [
  { key: 'max_daily_loss', label: 'Max Daily Loss (%)', input: PERCENT },
  { key: 'risk_percent', label: 'Default Risk per Trade (%)', input: { ...PERCENT, step: 0.1 } },
  { key: 'max_trade_risk', label: 'Max Trade Risk (%)', input: PERCENT },
  { key: 'max_open_positions', label: 'Max Open Positions', input: COUNT },
  { key: 'max_open_trades_same_symbol', label: 'Max Open Trades (Same Symbol)', input: COUNT },
  { key: 'max_lot_size', label: 'Max Lot Size', input: { min: 0, decimalScale: 2 } },
  { key: 'consecutive_loss_limit', label: 'Consecutive Loss Limit', input: COUNT },
];

const blank = (v: number | null): Num => (v === null ? '' : v);
const orNull = (v: Num): number | null => (v === '' || v === null ? null : Number(v));

function toForm(s: RiskSettings): FormState {
  return {
    max_daily_loss: blank(s.max_daily_loss),
    risk_percent: s.risk_percent,
    max_trade_risk: blank(s.max_trade_risk),
    max_open_positions: blank(s.max_open_positions),
    enforce_cooldowns: s.enforce_cooldowns,
    consecutive_loss_limit: blank(s.consecutive_loss_limit),
    cooldown_period: s.cooldown_period,
    max_lot_size: blank(s.max_lot_size),
    max_open_trades_same_symbol: blank(s.max_open_trades_same_symbol),
  };
}

/** When the settings unlock: the server's locked_until, else last_updated + 7 days if that is still ahead. */
export function unlockDate(
  s: Pick<RiskSettings, 'last_updated' | 'locked_until'>,
  now = new Date(),
): Date | null {
  if (s.locked_until) {
    const d = new Date(s.locked_until);
    return d > now ? d : null;
  }
  if (!s.last_updated) return null;
  const d = dayjs(s.last_updated).add(RISK_SETTINGS_LOCK_DAYS, 'day').toDate();
  return d > now ? d : null;
}

/** When settings saved at `now` unlock again: the lock starts at the save. */
export function lockEndIfSavedAt(now = new Date()): Date {
  return dayjs(now).add(RISK_SETTINGS_LOCK_DAYS, 'day').toDate();
}

const fmtDate = (d: Date) => dayjs(d).format('YYYY-MM-DD HH:mm');

/** Locked fields look read-only too: filled, with a lock, and out of the way of the keyboard's edits. */
const LOCKED = {
  variant: 'filled',
  rightSection: <IconLock size={14} aria-hidden />,
  'aria-readonly': true,
} as const;

/**
 * The Edit Account modal's optional risk-settings side panel (opened with its button): every rule of the account, editable once per
 * 7 days (read-only with the unlock date otherwise), and the account's default TP profile.
 */
export function RiskSettingsPanel({ accountId }: { accountId: string }) {
  const [shown, setShown] = useState(false);
  return (
    <Stack gap="xs" mt="md">
      <Button
        variant="light"
        leftSection={<IconShieldCheck size={16} />}
        onClick={() => setShown((v) => !v)}
        aria-expanded={shown}
      >
        {shown ? 'Hide Risk Settings' : 'Risk Settings'}
      </Button>
      {shown && <RiskSettingsForm accountId={accountId} />}
    </Stack>
  );
}

function RiskSettingsForm({ accountId }: { accountId: string }) {
  const qc = useQueryClient();
  const settings = useRiskSettings(accountId);
  const profiles = useProfitProfiles();
  const [form, setForm] = useState<FormState | null>(null);
  const [cooldownError, setCooldownError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (settings.data) setForm(toForm(settings.data));
  }, [settings.data]);

  const save = useMutation({
    mutationFn: (body: RiskSettingsUpdate) => putRiskSettings(accountId, body),
    onSuccess: (data) => {
      qc.setQueryData(riskSettingsKey(accountId), data);
      setError(null);
      notifications.show({ color: 'teal', message: RISK_SETTINGS_MESSAGES.updated });
    },
    onError: (err) => setError(errorMessage(err, RISK_SETTINGS_MESSAGES.updateFailed)),
  });
  const setProfile = useMutation({
    mutationFn: (id: string | null) => patchDefaultProfile(accountId, id),
    onSuccess: (data) => {
      qc.setQueryData(riskSettingsKey(accountId), data);
      setError(null);
      notifications.show({ color: 'teal', message: RISK_SETTINGS_MESSAGES.updated });
    },
    onError: (err) => setError(errorMessage(err, RISK_SETTINGS_MESSAGES.updateFailed)),
  });

  if (settings.isError) {
    return (
      <Alert color="red" variant="light" role="alert" title={RISK_SETTINGS_MESSAGES.fetchFailed}>
        <Text size="sm">{errorMessage(settings.error, RISK_SETTINGS_MESSAGES.fetchFailed)}</Text>
        <Button size="xs" mt="xs" variant="light" onClick={() => void settings.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  }
  if (!settings.data || !form) {
    return (
      <Group justify="center" p="md">
        <Loader size="sm" aria-label="Loading risk settings" />
      </Group>
    );
  }

  const s = settings.data;
  const unlock = unlockDate(s);
  const readOnly = unlock !== null;
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) =>
    setForm((f) => (f ? { ...f, [key]: value } : f));
  const numberField = (f: (typeof NUMBER_FIELDS)[number]) => (
    <NumberInput
      key={f.key}
      label={f.label}
      value={form?.[f.key] ?? ''}
      onChange={(v) => set(f.key, v)}
      {...f.input}
      readOnly={readOnly}
      {...(readOnly ? LOCKED : {})}
    />
  );

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!form || readOnly) return;
    if (!COOLDOWN_PATTERN.test(form.cooldown_period.trim())) {
      setCooldownError(RISK_SETTINGS_MESSAGES.cooldownFormat);
      return;
    }
    setCooldownError(null);
    const risk = orNull(form.risk_percent);
    if (risk === null) {
      setError('Default risk (%) is required.');
      return;
    }
    const body: RiskSettingsUpdate = {
      max_daily_loss: orNull(form.max_daily_loss),
      risk_percent: risk,
      max_trade_risk: orNull(form.max_trade_risk),
      max_open_positions: orNull(form.max_open_positions),
      enforce_cooldowns: form.enforce_cooldowns,
      consecutive_loss_limit: orNull(form.consecutive_loss_limit),
      cooldown_period: form.cooldown_period.trim(),
      max_lot_size: orNull(form.max_lot_size),
      max_open_trades_same_symbol: orNull(form.max_open_trades_same_symbol),
    };
    // Saving locks the settings for a week: the trader hears it, with the date, before it happens.
    modals.openConfirmModal({
      title: 'Save and lock the risk settings?',
      children: (
        <Text size="sm" data-testid="risk-lock-warning">
          Once saved, these risk settings are locked for {RISK_SETTINGS_LOCK_DAYS} days: you cannot change
          them again until {fmtDate(lockEndIfSavedAt())}.
        </Text>
      ),
      labels: { confirm: 'Save and lock', cancel: 'Cancel' },
      onConfirm: () => save.mutate(body),
    });
  }

  const profileOptions = (profiles.data ?? []).map((p) => ({ value: p.id, label: p.name }));
  const current = s.default_tp_profile;

  return (
    <Card withBorder padding="md" component="section" aria-label="Risk settings">
      <form onSubmit={submit} noValidate>
        <Stack gap="xs">
          <Title order={4}>Risk Settings</Title>
          {readOnly && (
            <Alert color="yellow" variant="light" icon={<IconLock size={16} />}>
              Risk settings can be changed once every {RISK_SETTINGS_LOCK_DAYS} days. They are read-only until{' '}
              {fmtDate(unlock)}.
            </Alert>
          )}
          <Text size="xs" c="dimmed">
            Leave a limit empty to switch that rule off.
            {s.last_updated && ` Last updated ${dayjs(s.last_updated).format('YYYY-MM-DD HH:mm')}.`}
          </Text>
          <SimpleGrid cols={2} spacing="xs" verticalSpacing="xs">
            {NUMBER_FIELDS.slice(0, -1).map(numberField)}
            <Switch
              label="Enforce Cooldowns"
              mt={30}
              checked={form.enforce_cooldowns}
              onChange={(e) => set('enforce_cooldowns', e.currentTarget.checked)}
              disabled={readOnly}
            />
            {numberField(NUMBER_FIELDS[NUMBER_FIELDS.length - 1]!)}
            <TextInput
              label="Cooldown Period (HH:MM:SS)"
              value={form.cooldown_period}
              onChange={(e) => {
                set('cooldown_period', e.currentTarget.value);
                setCooldownError(null);
              }}
              error={cooldownError}
              readOnly={readOnly}
              {...(readOnly ? LOCKED : {})}
            />
          </SimpleGrid>
          {!readOnly && (
            <Button type="submit" loading={save.isPending}>
              Save Risk Settings
            </Button>
          )}
          <Select
            label="Default TP Profile"
            placeholder={profiles.isLoading ? 'Loading…' : 'None (default 50/50 at 1.5R/3R)'}
            data={profileOptions}
            value={s.default_tp_profile_id}
            onChange={(v) => setProfile.mutate(v)}
            clearable
            disabled={setProfile.isPending}
          />
          {current && (
            <Text size="xs" c="dimmed" data-testid="default-tp-profile">
              {current.name}:{' '}
              {current.partial_targets.map((t) => `${t.size_pct}% at ${t.r_multiple}R`).join(', ')}
            </Text>
          )}
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
        </Stack>
      </form>
    </Card>
  );
}
