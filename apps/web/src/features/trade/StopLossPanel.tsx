import { Card, Group, NumberInput, Stack, Text } from '@mantine/core';
import { ModeValuePanel } from './ModeValuePanel';
import type { TradeForm } from './tradePlan';

const SL_MODES = [
  { value: 'distance', label: 'Distance' },
  { value: 'price', label: 'Price' },
  { value: 'atr', label: 'ATR' },
] as const;

/** The Stop Loss panel of Place a Trade: distance in pips, a price, or ATR × multiplier. */
export function StopLossPanel({
  form,
  set,
  digits,
  atr,
  defaultReason,
  onDistanceTyped,
}: {
  form: TradeForm;
  set: <K extends keyof TradeForm>(key: K, value: TradeForm[K]) => void;
  digits: number;
  atr: { loading: boolean; value: number | null | undefined };
  /** Why the distance is what it is, until the trader types one. */
  defaultReason: string | undefined;
  onDistanceTyped: (v: number | string) => void;
}) {
  return (
    <Card withBorder padding="sm">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          Stop Loss
        </Text>
        <ModeValuePanel
          label="Stop loss mode"
          modes={SL_MODES}
          mode={form.slMode}
          onMode={(m) => set('slMode', m)}
          fields={{
            distance: {
              label: 'Stop Loss Distance (pips)',
              description: defaultReason,
              value: form.slDistance,
              onChange: onDistanceTyped,
              decimals: 1,
            },
            price: {
              label: 'Stop Loss Price',
              value: form.slPrice,
              onChange: (v) => set('slPrice', v),
              decimals: digits,
            },
          }}
          custom={
            <Group align="flex-end">
              <NumberInput
                label="ATR Multiplier"
                value={form.atrMultiplier}
                onChange={(v) => set('atrMultiplier', v)}
                min={0}
                step={0.1}
                decimalScale={2}
                w={160}
              />
              <Text size="sm" pb={8}>
                ATR ({form.timeframe}):{' '}
                <b data-testid="atr-value">
                  {atr.loading ? '…' : atr.value != null ? atr.value.toFixed(digits) : 'not available'}
                </b>
              </Text>
            </Group>
          }
        />
      </Stack>
    </Card>
  );
}
