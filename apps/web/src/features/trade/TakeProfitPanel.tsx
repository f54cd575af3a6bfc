import { Card, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { ModeValuePanel } from './ModeValuePanel';
import { TargetsEditor } from './TargetsEditor';
import type { TradeForm } from './tradePlan';

const TP_MODES = [
  { value: 'rr_ratio', label: 'RR Ratio' },
  { value: 'distance', label: 'Distance' },
  { value: 'price', label: 'Price' },
] as const;

/** The Take Profit panel of Place a Trade: one target (RR, distance, price) or several partial ones. */
export function TakeProfitPanel({
  form,
  set,
  digits,
}: {
  form: TradeForm;
  set: <K extends keyof TradeForm>(key: K, value: TradeForm[K]) => void;
  digits: number;
}) {
  return (
    <Card withBorder padding="sm">
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600} size="sm">
            Take Profit
          </Text>
          <SegmentedControl
            aria-label="Profit mode"
            size="xs"
            data={[
              { value: 'single', label: 'Single TP' },
              { value: 'multi', label: 'Multi TP' },
            ]}
            value={form.profitMode}
            onChange={(v) => set('profitMode', v as TradeForm['profitMode'])}
          />
        </Group>
        {form.profitMode === 'single' ? (
          <ModeValuePanel
            label="Take profit mode"
            modes={TP_MODES}
            mode={form.tpMode}
            onMode={(m) => set('tpMode', m)}
            fields={{
              rr_ratio: {
                label: 'RR Ratio',
                value: form.rr,
                onChange: (v) => set('rr', v),
                step: 0.25,
                decimals: 2,
              },
              distance: {
                label: 'Take Profit Distance (pips)',
                value: form.tpDistance,
                onChange: (v) => set('tpDistance', v),
                decimals: 1,
              },
              price: {
                label: 'Take Profit Price',
                value: form.tpPrice,
                onChange: (v) => set('tpPrice', v),
                decimals: digits,
              },
            }}
          />
        ) : (
          <TargetsEditor rows={form.targets} onChange={(rows) => set('targets', rows)} digits={digits} />
        )}
      </Stack>
    </Card>
  );
}
