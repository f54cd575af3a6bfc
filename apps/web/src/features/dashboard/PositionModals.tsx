import { useState, type FormEvent, type ReactNode } from 'react';
import { Modal, NumberInput, Select, Stack, Text } from '@mantine/core';
import { notifications } from '../../app/notify';
import { useMutation } from '@tanstack/react-query';
import { TRADE_MESSAGES } from '@tradedesk/contract';
import { FormActions } from '../../app/FormActions';
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

/** What every position modal keeps: one value, its field error, the request's error, and close-and-reset. */
function usePositionAction<T>(opts: {
  mutationFn: (input: T) => Promise<unknown>;
  success: string;
  failure: string;
  onClose: () => void;
  onDone: () => void;
  /** Resets what the modal keeps besides the value. */
  onReset?: () => void;
}) {
  const [value, setValue] = useState<number | string>('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: opts.mutationFn,
    onSuccess: () => {
      notifications.show({ color: 'teal', message: opts.success });
      close();
      opts.onDone();
    },
    onError: (err) => setError(actionFailure(err, opts.failure)),
  });

  function close() {
    opts.onReset?.();
    setValue('');
    setFieldError(null);
    setError(null);
    opts.onClose();
  }

  return { value, setValue, fieldError, setFieldError, error, setError, mutation, close };
}

/** The modal around a position's form: summary, fields, the failure, Cancel and the action (its title). */
function PositionActionModal({
  title,
  position,
  action,
  onSubmit,
  children,
}: {
  title: string;
  position: OpenPosition | null;
  action: { close: () => void; error: string | null; mutation: { isPending: boolean } };
  onSubmit: (e: FormEvent) => void;
  children: ReactNode;
}) {
  return (
    <Modal opened={!!position} onClose={action.close} title={title}>
      {position && (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <PositionSummary p={position} />
            {children}
            <FormActions
              error={action.error}
              onCancel={action.close}
              submitLabel={title}
              pending={action.mutation.isPending}
            />
          </Stack>
        </form>
      )}
    </Modal>
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
  const action = usePositionAction({
    mutationFn: updateStopLoss,
    success: TRADE_MESSAGES.slUpdated,
    failure: TRADE_TEXT.slFailed,
    onClose,
    onDone,
    onReset: () => setType('specific_price'),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!position) return;
    action.setError(null);
    if (type === 'breakeven') {
      action.mutation.mutate({ trade_id: position.id, sl_update_type: type });
      return;
    }
    const n = asNumber(action.value);
    if (n === null) return action.setFieldError(TRADE_TEXT.slRequired);
    action.setFieldError(null);
    action.mutation.mutate(
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
    <PositionActionModal title="Update Stop Loss" position={position} action={action} onSubmit={submit}>
      <Select
        label="Update Type"
        data={SL_TYPES}
        value={type}
        onChange={(v) => {
          if (v) setType(v as SlUpdateType);
          action.setFieldError(null);
        }}
        allowDeselect={false}
      />
      {type === 'breakeven' ? (
        <Text size="sm">
          The stop loss moves to the entry price ({formatPrice(position?.entry_price ?? null)}).
        </Text>
      ) : (
        <NumberInput
          label={valueLabel}
          value={action.value}
          onChange={action.setValue}
          decimalScale={type === 'distance_pips' ? 1 : 5}
          error={action.fieldError}
          data-autofocus
        />
      )}
    </PositionActionModal>
  );
}

export function UpdateTakeProfitModal({ position, onClose, onDone }: Props) {
  const action = usePositionAction({
    mutationFn: (tp: number) => updateTakeProfit(position!.id, tp),
    success: TRADE_MESSAGES.tpUpdated,
    failure: TRADE_TEXT.tpFailed,
    onClose,
    onDone,
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    action.setError(null);
    const n = asNumber(action.value);
    if (n === null) return action.setFieldError(TRADE_TEXT.tpInvalid);
    action.setFieldError(null);
    action.mutation.mutate(n);
  }

  return (
    <PositionActionModal title="Update Take Profit" position={position} action={action} onSubmit={submit}>
      <NumberInput
        label="Take Profit"
        value={action.value}
        onChange={action.setValue}
        decimalScale={5}
        error={action.fieldError}
        data-autofocus
      />
    </PositionActionModal>
  );
}

export function PartialCloseModal({ position, onClose, onDone }: Props) {
  const action = usePositionAction({
    mutationFn: (volume: number) => partialClose(position!.id, volume),
    success: TRADE_MESSAGES.partiallyClosed,
    failure: TRADE_TEXT.partialFailed,
    onClose,
    onDone,
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!position) return;
    action.setError(null);
    const n = asNumber(action.value);
    if (n === null || n <= 0) return action.setFieldError(TRADE_TEXT.volumePositive);
    if (n >= position.lot_size) {
      return action.setFieldError(TRADE_MESSAGES.volumeTooLarge(position.lot_size));
    }
    action.setFieldError(null);
    action.mutation.mutate(n);
  }

  return (
    <PositionActionModal title="Partially Close" position={position} action={action} onSubmit={submit}>
      <NumberInput
        label="Volume to Close"
        description={position ? `Remaining lot size: ${formatLots(position.lot_size)}` : undefined}
        value={action.value}
        onChange={action.setValue}
        decimalScale={2}
        step={0.01}
        min={0}
        error={action.fieldError}
        data-autofocus
      />
    </PositionActionModal>
  );
}
