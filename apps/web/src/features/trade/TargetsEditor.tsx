import { ActionIcon, Button, Group, NumberInput, Select, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { DEFAULT_ATR_MULTIPLIER } from '@tradedesk/domain';
import type { TargetRow } from './tradePlan';

/** The partial targets of a multi-TP trade: share, type and value of each, up to ten. */
export function TargetsEditor({
  rows,
  onChange,
  digits,
}: {
  rows: TargetRow[];
  onChange: (rows: TargetRow[]) => void;
  digits: number;
}) {
  const update = (i: number, patch: Partial<TargetRow>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const total = rows.reduce((s, r) => s + (r.share === '' ? 0 : Number(r.share)), 0);
  return (
    <Stack gap="xs" role="group" aria-label="Partial targets">
      {rows.map((r, i) => (
        <Group key={i} align="flex-end" wrap="nowrap" gap="xs">
          <NumberInput
            label={`Target ${i + 1} share (%)`}
            value={r.share}
            onChange={(v) => update(i, { share: v })}
            min={0}
            max={100}
            decimalScale={2}
            w={150}
          />
          <Select
            label={`Target ${i + 1} type`}
            data={[
              { value: 'RR', label: 'RR' },
              { value: 'ATR', label: 'ATR ×' },
              { value: 'PRICE', label: 'Price' },
            ]}
            value={r.tp_type}
            onChange={(v) =>
              v &&
              update(i, {
                tp_type: v as TargetRow['tp_type'],
                value: v === 'ATR' ? DEFAULT_ATR_MULTIPLIER : '',
              })
            }
            allowDeselect={false}
            w={110}
          />
          <NumberInput
            label={
              r.tp_type === 'RR'
                ? `Target ${i + 1} R`
                : r.tp_type === 'ATR'
                  ? `Target ${i + 1} ATR multiplier`
                  : `Target ${i + 1} price`
            }
            value={r.value}
            onChange={(v) => update(i, { value: v })}
            min={0}
            decimalScale={r.tp_type === 'PRICE' ? digits : 2}
            style={{ flex: 1 }}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Remove target ${i + 1}`}
            disabled={rows.length <= 1}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
            mb={4}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Group justify="space-between">
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPlus size={14} />}
          disabled={rows.length >= 10}
          onClick={() => onChange([...rows, { share: 0, tp_type: 'RR', value: 2 }])}
        >
          Add Target
        </Button>
        <Text size="xs" c={Math.abs(total - 100) < 1e-6 ? 'dimmed' : 'red'}>
          Shares total {Math.round(total * 100) / 100}%
        </Text>
      </Group>
    </Stack>
  );
}
