import { Button, Group, Select, TextInput } from '@mantine/core';
import { useAccounts } from '../accounts/accounts.api';
import { localDate } from '../history/history.api';
import type { ReportFilters } from './reports.api';

export const RANGE_PRESETS = ['All time', 'This month', 'Last 30 days', 'Last 90 days', 'This year'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

/** A preset as from/to dates (the browser's local days). */
export function presetRange(preset: RangePreset, now = new Date()): { from: string; to: string } {
  const today = localDate(now);
  const daysAgo = (n: number) => localDate(new Date(now.getFullYear(), now.getMonth(), now.getDate() - n));
  switch (preset) {
    case 'This month':
      return { from: `${today.slice(0, 7)}-01`, to: today };
    case 'Last 30 days':
      return { from: daysAgo(29), to: today };
    case 'Last 90 days':
      return { from: daysAgo(89), to: today };
    case 'This year':
      return { from: `${today.slice(0, 4)}-01-01`, to: today };
    default:
      return { from: '', to: '' };
  }
}

export function ReportFiltersBar({
  filters,
  preset,
  onChange,
}: {
  filters: ReportFilters;
  preset: RangePreset;
  onChange: (f: ReportFilters, preset: RangePreset) => void;
}) {
  const accounts = useAccounts();
  const options = [
    { value: '', label: 'All accounts' },
    ...(accounts.data ?? []).map((a) => ({ value: a.id, label: a.name })),
  ];
  return (
    <Group align="end" gap="sm" className="no-print" aria-label="Report filters">
      <Select
        label="Account"
        data={options}
        value={filters.account}
        allowDeselect={false}
        onChange={(v) => onChange({ ...filters, account: v ?? '' }, preset)}
      />
      <Select
        label="Range"
        data={[...RANGE_PRESETS]}
        value={preset}
        allowDeselect={false}
        onChange={(v) => {
          const p = (v ?? 'All time') as RangePreset;
          onChange({ ...filters, ...presetRange(p) }, p);
        }}
      />
      <TextInput
        label="Instrument"
        placeholder="e.g. EURUSD"
        defaultValue={filters.instrument}
        onBlur={(e) => onChange({ ...filters, instrument: e.currentTarget.value.trim() }, preset)}
        onKeyDown={(e) => e.key === 'Enter' && e.currentTarget.blur()}
      />
      <TextInput
        label="Strategy tag"
        placeholder="e.g. breakout"
        defaultValue={filters.tag}
        onBlur={(e) => onChange({ ...filters, tag: e.currentTarget.value.trim() }, preset)}
        onKeyDown={(e) => e.key === 'Enter' && e.currentTarget.blur()}
      />
      <Button variant="default" onClick={() => window.print()}>
        Print
      </Button>
    </Group>
  );
}
