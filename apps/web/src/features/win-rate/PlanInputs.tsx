import { useId } from 'react';
import { Group, NumberInput, Select, Slider, Stack, Text } from '@mantine/core';
import { WIN_RATE_LIMITS, WIN_RATE_PROFILES } from '@tradedesk/contract';
import type { WinRateIssue } from '@tradedesk/domain';
import type { WinRateForm } from './winRateForm';

interface SliderFieldProps {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange: (v: number) => void;
}

/** A slider for quick changes with a number box beside it for exact values; both are keyboard operable. */
function SliderField({ label, value, min, max, step, onChange }: SliderFieldProps) {
  const id = useId();
  return (
    <Stack gap={4}>
      <Group justify="space-between" align="flex-end" wrap="nowrap">
        <Text size="sm" fw={500} component="label" htmlFor={id}>
          {label}
        </Text>
        <NumberInput
          id={id}
          value={value}
          min={min}
          max={max}
          step={step}
          decimalScale={1}
          clampBehavior="strict"
          allowNegative={false}
          w={110}
          size="xs"
          suffix="%"
          onChange={(v) => {
            if (typeof v === 'number' && Number.isFinite(v)) onChange(v);
          }}
        />
      </Group>
      <Slider
        thumbLabel={`${label} slider`}
        value={value}
        min={min}
        max={max}
        step={step}
        label={(v) => `${v}%`}
        onChange={onChange}
        marks={[
          { value: min, label: `${min}%` },
          { value: max, label: `${max}%` },
        ]}
        mb="md"
      />
    </Stack>
  );
}

export function PlanInputs({
  form,
  issues,
  onChange,
}: {
  form: WinRateForm;
  issues: WinRateIssue[];
  onChange: (patch: Partial<WinRateForm>) => void;
}) {
  const tradesIssue = issues.find((i) => i.field === 'numTrades');
  return (
    <Stack gap="sm">
      <SliderField
        label="Growth goal (%)"
        value={form.growthGoal}
        {...WIN_RATE_LIMITS.growthGoal}
        onChange={(growthGoal) => onChange({ growthGoal })}
      />
      <SliderField
        label="Risk per trade (%)"
        value={form.riskPerTrade}
        {...WIN_RATE_LIMITS.riskPerTrade}
        onChange={(riskPerTrade) => onChange({ riskPerTrade })}
      />
      <Group grow align="flex-start">
        <NumberInput
          label="Number of trades"
          value={form.numTrades}
          min={WIN_RATE_LIMITS.numTrades.min}
          max={WIN_RATE_LIMITS.numTrades.max}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="blur"
          error={tradesIssue?.message}
          onChange={(v) => onChange({ numTrades: v === '' ? '' : Number(v) })}
        />
        <Select
          label="Profile"
          data={
            (WIN_RATE_PROFILES as readonly string[]).includes(form.profile)
              ? [...WIN_RATE_PROFILES]
              : [...WIN_RATE_PROFILES, form.profile]
          }
          value={form.profile}
          allowDeselect={false}
          onChange={(v) => v && onChange({ profile: v })}
        />
      </Group>
    </Stack>
  );
}
