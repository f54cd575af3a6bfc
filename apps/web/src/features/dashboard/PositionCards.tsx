import { Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { PNL_COLORS } from '../../app/theme';
import { formatLots, formatPrice, type OpenPosition } from '../trade/trades.api';
import { BotBadge } from '../bots/BotBadge';
import { PositionActions, type PositionAction } from './PositionActions';
import { compactMoney, shortTime } from './positionFormat';

interface Props {
  rows: OpenPosition[];
  decimals: number;
  closing: Set<string>;
  onClose: (p: OpenPosition) => void;
  onAction: (kind: PositionAction, p: OpenPosition) => void;
  /** Trade id → name of the bot whose live run opened it. */
  bots?: ReadonlyMap<string, string>;
}

const createdAt = (iso: string) => {
  const t = shortTime(iso);
  return `${t.day} ${t.time}`.trim();
};

function Field({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text fz="xs" c="dimmed">
        {label}
      </Text>
      <Text fz="sm">{value}</Text>
    </div>
  );
}

/**
 * Open positions under 768 px: one card per position with the spec's fields, instrument, direction
 * and P/L on top and the actions at the bottom, so a phone never scrolls sideways.
 */
export function PositionCards({ rows, decimals, closing, onClose, onAction, bots }: Props) {
  return (
    <Stack gap="sm" role="list" aria-label="Open positions">
      {rows.map((p, i) => {
        const id = String(p.position_id ?? p.id);
        const pl = p.current_pl;
        return (
          <Card key={p.id} withBorder padding="sm" role="listitem" data-position-id={p.id}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <div>
                <Text fw={700}>
                  {p.instrument}{' '}
                  <Text span fw={700} c={p.direction === 'BUY' ? PNL_COLORS.up : PNL_COLORS.down}>
                    {p.direction}
                  </Text>
                  <BotBadge name={bots?.get(p.id)} />
                </Text>
                <Text fz="xs" c="dimmed" title={id}>
                  Position ID {id.slice(0, 8)}
                </Text>
              </div>
              <div style={{ textAlign: 'right' }}>
                <Text fz="xs" c="dimmed">
                  Current P/L
                </Text>
                <Text fw={700} c={pl === null ? undefined : pl >= 0 ? PNL_COLORS.up : PNL_COLORS.down}>
                  {pl === null ? '—' : compactMoney(pl, decimals)}
                </Text>
              </div>
            </Group>
            <SimpleGrid cols={2} spacing="xs" verticalSpacing={4} mt="xs">
              <Field label="Lot Size" value={formatLots(p.lot_size)} />
              <Field label="Entry Price" value={formatPrice(p.entry_price)} />
              <Field label="RR Ratio" value={p.rr_ratio === null ? '—' : p.rr_ratio.toFixed(2)} />
              <Field label="Stop Loss" value={formatPrice(p.stop_loss)} />
              <Field label="Profit Target" value={formatPrice(p.profit_target)} />
              <Field label="Created At" value={createdAt(p.created_at)} />
            </SimpleGrid>
            <Group justify="flex-end" mt="xs">
              <PositionActions
                position={p}
                closing={closing.has(p.id)}
                upward={i >= rows.length - 2}
                onClose={onClose}
                onAction={onAction}
              />
            </Group>
          </Card>
        );
      })}
    </Stack>
  );
}
