import type { ReactNode } from 'react';
import { NumberInput, SegmentedControl } from '@mantine/core';

/** A number as the trade form holds it: '' while empty, else what was typed. */
type Typed = number | string;

/** The one field of a mode: its label, value and decimals (a price's are the symbol's digits). */
export interface ModeField {
  label: string;
  value: Typed;
  onChange: (v: Typed) => void;
  decimals: number;
  step?: number;
  description?: string;
}

/**
 * How a level is given (distance, price, RR ratio…) and the field of the chosen mode, as the stop loss
 * and the take profit both ask. A mode without a field shows `custom` instead (the ATR multiplier).
 */
export function ModeValuePanel<M extends string>({
  label,
  modes,
  mode,
  onMode,
  fields,
  custom,
}: {
  /** The accessible name of the mode switch. */
  label: string;
  modes: ReadonlyArray<{ value: M; label: string }>;
  mode: M;
  onMode: (mode: M) => void;
  fields: Partial<Record<M, ModeField>>;
  custom?: ReactNode;
}) {
  const field = fields[mode];
  return (
    <>
      <SegmentedControl aria-label={label} data={[...modes]} value={mode} onChange={(v) => onMode(v as M)} />
      {field ? (
        <NumberInput
          key={mode}
          label={field.label}
          description={field.description}
          value={field.value}
          onChange={field.onChange}
          min={0}
          step={field.step}
          decimalScale={field.decimals}
        />
      ) : (
        custom
      )}
    </>
  );
}
