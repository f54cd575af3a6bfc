import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, NumberInput, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { TRADE_MESSAGES } from '@tradedesk/contract';
import {
  actionFailure,
  formatLots,
  formatPrice,
  partialClose,
  TRADE_TEXT,
  updateStopLoss,
  updateTakeProfit,
  type OpenPosition,
  type SlUpdateType,
} from '../trade/trades.api';

interface Props {
  position: OpenPosition | null;
  onClose: () => void;
  /** Called after a successful change, so the list reloads. */
  onDone: () => void;
}

function asNumber(v: number | string): number | null {
  if (v === '' || v === null) return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
}

function PositionSummary({ p }: { p: OpenPosition }) {
  return (
    <Text size="sm" c="dimmed">
      {p.direction} {formatLots(p.lot_size)} {p.instrument} at {formatPrice(p.entry_price)} · SL{' '}
      {formatPrice(p.stop_loss)} · TP {formatPrice(p.profit_target)}
    </Text>
  );
}

const SL_TYPES: Array<{ value: SlUpdateType; label: string }> = [
  { value: 'specific_price', label: 'Specific price' },
  { value: 'breakeven', label: 'Breakeven' },
  { value: 'distance_pips', label: 'Distance (pips)' },
  { value: 'distance_price', label: 'Distance (price)' },
];

export function UpdateStopLossModal({ position, onClose, onDone }: Props) {
  const [type, setType] = useState<SlUpdateType>('specific_price');
  const [value, setValue] = useState<number | string>('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: updateStopLoss,
    onSuccess: () => {
      notifications.show({ color: 'teal', message: TRADE_MESSAGES.slUpdated });
      close();
      onDone();
    },
    onError: (err) => setError(actionFailure(err, TRADE_TEXT.slFailed)),
  });

  function close() {
    setType('specific_price');
    setValue('');
    setFieldError(null);
    setError(null);
    onClose();
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!position) return;
    setError(null);
    if (type === 'breakeven') {
      mutation.mutate({ trade_id: position.id, sl_update_type: type });
      return;
    }
    const n = asNumber(value);
    if (n === null) return setFieldError(TRADE_TEXT.slRequired);
    setFieldError(null);
    mutation.mutate(
      type === 'specific_price'
        ? { trade_id: position.id, sl_update_type: type, specific_price: n }
        : { trade_id: position.id, sl_update_type: type, value: n },
    );
  }

  const valueLabel =
    type === 'specific_price'
      ? 'Stop Loss Price'
      : type === 'distance_pips'
        ? 'Distance (pips)'
        : 'Distance (price)';

  return (
    <Modal opened={!!position} onClose={close} title="Update Stop Loss">
      {position && (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <PositionSummary p={position} />
            <Select
              label="Update Type"
              data={SL_TYPES}
              value={type}
              onChange={(v) => {
                if (v) setType(v as SlUpdateType);
                setFieldError(null);
              }}
              allowDeselect={false}
            />
            {type === 'breakeven' ? (
              <Text size="sm">
                The stop loss moves to the entry price ({formatPrice(position.entry_price)}).
              </Text>
            ) : (
              <NumberInput
                label={valueLabel}
                value={value}
                onChange={setValue}
                decimalScale={type === 'distance_pips' ? 1 : 5}
                error={fieldError}
                data-autofocus
              />
            )}
            {error && (
              <Alert color="red" variant="light" role="alert">
                {error}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={mutation.isPending}>
                Update Stop Loss
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

export function UpdateTakeProfitModal({ position, onClose, onDone }: Props) {
  const [value, setValue] = useState<number | string>('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (tp: number) => updateTakeProfit(position!.id, tp),
    onSuccess: () => {
      notifications.show({ color: 'teal', message: TRADE_MESSAGES.tpUpdated });
      close();
      onDone();
    },
    onError: (err) => setError(actionFailure(err, TRADE_TEXT.tpFailed)),
  });

  function close() {
    setValue('');
    setFieldError(null);
    setError(null);
    onClose();
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const n = asNumber(value);
    if (n === null) return setFieldError(TRADE_TEXT.tpInvalid);
    setFieldError(null);
    mutation.mutate(n);
  }

  return (
    <Modal opened={!!position} onClose={close} title="Update Take Profit">
      {position && (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <PositionSummary p={position} />
            <NumberInput
              label="Take Profit"
              value={value}
              onChange={setValue}
              decimalScale={5}
              error={fieldError}
              data-autofocus
            />
            {error && (
              <Alert color="red" variant="light" role="alert">
                {error}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={mutation.isPending}>
                Update Take Profit
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

export function PartialCloseModal({ position, onClose, onDone }: Props) {
  const [value, setValue] = useState<number | string>('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (volume: number) => partialClose(position!.id, volume),
    onSuccess: () => {
      notifications.show({ color: 'teal', message: TRADE_MESSAGES.partiallyClosed });
      close();
      onDone();
    },
    onError: (err) => setError(actionFailure(err, TRADE_TEXT.partialFailed)),
  });

  function close() {
    setValue('');
    setFieldError(null);
    setError(null);
    onClose();
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!position) return;
    setError(null);
    const n = asNumber(value);
    if (n === null || n <= 0) return setFieldError(TRADE_TEXT.volumePositive);
    if (n >= position.lot_size) {
      return setFieldError(TRADE_MESSAGES.volumeTooLarge(position.lot_size));
    }
    setFieldError(null);
    mutation.mutate(n);
  }

  return (
    <Modal opened={!!position} onClose={close} title="Partially Close">
      {position && (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <PositionSummary p={position} />
            <NumberInput
              label="Volume to Close"
              description={`Remaining lot size: ${formatLots(position.lot_size)}`}
              value={value}
              onChange={setValue}
              decimalScale={2}
              step={0.01}
              min={0}
              error={fieldError}
              data-autofocus
            />
            {error && (
              <Alert color="red" variant="light" role="alert">
                {error}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={mutation.isPending}>
                Partially Close
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
