import { Checkbox, ColorInput, NumberInput, Select } from '@mantine/core';
import { hexToRgb, RSI_SMOOTHING, rgbToHex, SNAPSHOT_PRICE_SOURCES, VWAP_ANCHORS } from '@tradedesk/contract';
import type { FieldKind } from './indicatorFields';
import { numberOrNull } from './templateForm';

const STEP: Partial<Record<FieldKind, number>> = { int: 1, width: 0.1, multiple: 0.1, value: 0.01 };
const CHOICES: Partial<Record<FieldKind, readonly string[]>> = {
  source: SNAPSHOT_PRICE_SOURCES,
  ma: RSI_SMOOTHING,
  anchor: VWAP_ANCHORS,
};

/**
 * One template field. Numbers have a minimum of 0 and the spec's steps, and an emptied number is null;
 * colours are edited as hex and handed back as the stored rgb(r, g, b).
 */
export function FieldInput({
  kind,
  label,
  value,
  onChange,
  readOnly,
}: {
  kind: FieldKind;
  label: string;
  value: unknown;
  onChange: (v: unknown) => void;
  readOnly: boolean;
}) {
  if (kind === 'bool')
    return (
      <Checkbox
        label={label}
        checked={value === true}
        onChange={(e) => onChange(e.currentTarget.checked)}
        disabled={readOnly}
        mt="lg"
      />
    );
  if (kind === 'colour')
    return (
      <ColorInput
        label={label}
        format="hex"
        value={typeof value === 'string' ? (rgbToHex(value) ?? '') : ''}
        onChange={(hex) => {
          const rgb = hexToRgb(hex);
          if (rgb) onChange(rgb);
        }}
        readOnly={readOnly}
        withEyeDropper={false}
      />
    );
  const choices = CHOICES[kind];
  if (choices)
    return (
      <Select
        label={label}
        data={[...choices]}
        value={typeof value === 'string' ? value : null}
        onChange={(v) => v && onChange(v)}
        allowDeselect={false}
        readOnly={readOnly}
      />
    );
  return (
    <NumberInput
      label={label}
      min={0}
      step={STEP[kind]}
      decimalScale={kind === 'int' ? 0 : kind === 'width' ? 1 : 2}
      value={typeof value === 'number' ? value : ''}
      onChange={(v) => onChange(numberOrNull(v))}
      readOnly={readOnly}
    />
  );
}
