import type { IndicatorSettings } from '@tradedesk/contract';

/**
 * How the form edits a field: whole lengths, line widths and σ multiples (step 0.1), level values
 * (step 0.01), and the rest.
 */
export type FieldKind =
  'int' | 'width' | 'multiple' | 'value' | 'colour' | 'bool' | 'source' | 'ma' | 'anchor';

export interface FieldSpec {
  key: string;
  label: string;
  kind: FieldKind;
}

export type OscillatorKey = Exclude<keyof IndicatorSettings, 'emas'>;

export interface IndicatorSpec {
  key: OscillatorKey;
  title: string;
  params: FieldSpec[];
  overrides: FieldSpec[];
}

const line = (name: string, label = name): FieldSpec[] => [
  { key: `${name}.color`, label: `${label} Colour`, kind: 'colour' },
  { key: `${name}.linewidth`, label: `${label} Line Width`, kind: 'width' },
];

/** The price-pane overlays edited like the oscillators (the EMAs have a form of their own), shown after the EMAs. */
export const OVERLAYS: IndicatorSpec[] = [
  {
    key: 'vwap',
    title: 'VWAP',
    params: [
      { key: 'anchor', label: 'Anchor Period', kind: 'anchor' },
      { key: 'source', label: 'Source', kind: 'source' },
      ...([1, 2, 3] as const).map((k) => ({
        key: `band_${k}_multiplier`,
        label: `Bands Multiplier #${k}`,
        kind: 'multiple' as const,
      })),
    ],
    overrides: [
      ...line('VWAP'),
      ...([1, 2, 3] as const).flatMap((k) => [
        { key: `Band #${k}.visible`, label: `Show Band #${k}`, kind: 'bool' as const },
        { key: `Band #${k}.color`, label: `Band #${k} Colour`, kind: 'colour' as const },
      ]),
      { key: 'Bands.linewidth', label: 'Bands Line Width', kind: 'width' },
    ],
  },
];

/** The oscillators of a template, their parameters and overrides, in the order the form shows them. */
export const OSCILLATORS: IndicatorSpec[] = [
  {
    key: 'dmi',
    title: 'DMI',
    params: [
      { key: 'di_length', label: 'DI Length', kind: 'int' },
      { key: 'adx_smoothing', label: 'ADX Smoothing', kind: 'int' },
    ],
    overrides: ['+DI', '-DI', 'ADX'].flatMap((n) => [
      ...line(n),
      { key: `${n}.visible`, label: `Show ${n}`, kind: 'bool' as const },
    ]),
  },
  {
    key: 'stoch_rsi',
    title: 'Stoch RSI',
    params: [
      { key: 'rsi_length', label: 'RSI Length', kind: 'int' },
      { key: 'stoch_length', label: 'Stochastic Length', kind: 'int' },
      { key: 'k_smooth', label: '%K Smoothing', kind: 'int' },
      { key: 'd_smooth', label: '%D Smoothing', kind: 'int' },
    ],
    overrides: [
      ...line('%K'),
      ...line('%D'),
      { key: 'UpperLimit.value', label: 'Upper Limit', kind: 'value' },
      { key: 'LowerLimit.value', label: 'Lower Limit', kind: 'value' },
    ],
  },
  {
    key: 'rsi',
    title: 'RSI',
    params: [
      { key: 'length', label: 'RSI Length', kind: 'int' },
      { key: 'smoothingLine', label: 'Smoothing Line', kind: 'ma' },
      { key: 'smoothingLength', label: 'Smoothing Length', kind: 'int' },
    ],
    overrides: [
      ...line('Plot', 'RSI'),
      { key: 'UpperLimit.value', label: 'Upper Limit', kind: 'value' },
      { key: 'LowerLimit.value', label: 'Lower Limit', kind: 'value' },
      { key: 'MiddleLimit.value', label: 'Middle Limit', kind: 'value' },
      { key: 'MiddleLimit.visible', label: 'Show Middle Limit', kind: 'bool' },
    ],
  },
  {
    key: 'macd',
    title: 'MACD',
    params: [
      { key: 'fast_length', label: 'Fast Length', kind: 'int' },
      { key: 'slow_length', label: 'Slow Length', kind: 'int' },
      { key: 'signal_length', label: 'Signal Length', kind: 'int' },
      { key: 'source', label: 'Source', kind: 'source' },
    ],
    overrides: [
      ...line('MACD'),
      ...line('Signal'),
      { key: 'Histogram.color', label: 'Histogram Colour', kind: 'colour' },
    ],
  },
  {
    key: 'cmf',
    title: 'CMF',
    params: [{ key: 'length', label: 'Length', kind: 'int' }],
    overrides: line('Plot', 'CMF'),
  },
];
