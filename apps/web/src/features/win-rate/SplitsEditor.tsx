import { Alert, Group, NumberInput, Select, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ProfitProfile } from '@tradedesk/contract';
import type { WinRateIssue } from '@tradedesk/domain';
import { describeTargets, type Field, type SplitKey, type WinRateForm } from './winRateForm';

const TARGETS = [1, 2, 3] as const;

function sum(values: Field[]): number {
  // Rounded for display: 33.3 + 33.3 + 33.4 reads 100, not 100.00000000000001.
  return Math.round(values.reduce<number>((a, v) => a + (v === '' ? 0 : v), 0) * 100) / 100;
}

interface Props {
  splits: WinRateForm['splits'];
  issues: WinRateIssue[];
  profiles: ProfitProfile[] | undefined;
  profilesLoading: boolean;
  filledFrom: string | null;
  onFillFromProfile: (profile: ProfitProfile) => void;
  onChange: (key: SplitKey, value: Field) => void;
}

/** The three partial targets: size and R multiple of each, and how often winners get that far. */
export function SplitsEditor({
  splits,
  issues,
  profiles,
  profilesLoading,
  filledFrom,
  onFillFromProfile,
  onChange,
}: Props) {
  const msg = (field: WinRateIssue['field']) => issues.find((i) => i.field === field)?.message;
  const sizes = msg('sizes');
  const quantities = msg('quantities');
  const rMultiples = msg('rMultiples');
  // On a phone nine inputs with spin buttons squeeze to 40 px and cut their values ("4" for 40%):
  // there the spin buttons go (the keyboard's arrows still step) and every input keeps room for "100%".
  const narrow = useMediaQuery('(max-width: 36em)', false, { getInitialValueInEffect: false });
  const field = (
    key: SplitKey,
    label: string,
    opts: { suffix?: string; max?: number; decimals?: number; invalid?: boolean },
  ) => (
    <NumberInput
      aria-label={label}
      value={splits[key]}
      min={0}
      max={opts.max}
      step={opts.suffix ? 5 : 0.25}
      decimalScale={opts.decimals ?? 2}
      allowNegative={false}
      suffix={opts.suffix}
      error={opts.invalid}
      size="sm"
      miw={64}
      hideControls={narrow}
      onChange={(v) => onChange(key, v === '' ? '' : Number(v))}
    />
  );
  const filled = profiles?.find((p) => p.id === filledFrom);
  return (
    <Stack gap="sm">
      <Select
        label="Fill splits from a saved profile"
        placeholder={
          profilesLoading
            ? 'Loading profiles…'
            : profiles && profiles.length
              ? 'Choose a profile'
              : 'No saved profiles yet'
        }
        disabled={!profiles || profiles.length === 0}
        data={(profiles ?? []).map((p) => ({
          value: p.id,
          label: p.is_default ? `${p.name} (default)` : p.name,
        }))}
        value={filledFrom}
        onChange={(id) => {
          const p = profiles?.find((x) => x.id === id);
          if (p) onFillFromProfile(p);
        }}
        clearable={false}
        searchable
        nothingFoundMessage="No profile of that name"
      />
      {filled && (
        <Text size="xs" c="dimmed">
          {describeTargets(filled)}
          {filled.partial_targets.length > 3 && ' — only the first three targets fit the calculator.'}
        </Text>
      )}
      <Table
        withRowBorders={false}
        verticalSpacing={4}
        horizontalSpacing={narrow ? 4 : 'xs'}
        aria-label="Partial targets"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th />
            <Table.Th>Size</Table.Th>
            <Table.Th>R multiple</Table.Th>
            <Table.Th>
              Quantity
              <Text span size="xs" c="dimmed" display="block" fw={400}>
                winners whose furthest target is this
              </Text>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {TARGETS.map((i) => (
            <Table.Tr key={i}>
              <Table.Th scope="row" style={{ whiteSpace: 'nowrap' }}>
                Target {i}
              </Table.Th>
              <Table.Td>
                {field(`w${i}`, `Target ${i} size (%)`, { suffix: '%', max: 100, invalid: !!sizes })}
              </Table.Td>
              <Table.Td>
                {field(`R${i}`, `Target ${i} R multiple`, { max: 100, invalid: !!rMultiples })}
              </Table.Td>
              <Table.Td>
                {field(`q${i}`, `Target ${i} quantity (%)`, { suffix: '%', max: 100, invalid: !!quantities })}
              </Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr>
            <Table.Th scope="row">Total</Table.Th>
            <Table.Td>
              <Text size="sm" c={sizes ? 'red' : 'dimmed'} data-testid="sizes-total">
                {sum([splits.w1, splits.w2, splits.w3])}%
              </Text>
            </Table.Td>
            <Table.Td />
            <Table.Td>
              <Text size="sm" c={quantities ? 'red' : 'dimmed'} data-testid="quantities-total">
                {sum([splits.q1, splits.q2, splits.q3])}%
              </Text>
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      {(sizes || quantities || rMultiples) && (
        <Alert color="red" variant="light" role="alert" title="Check the partial targets">
          <Stack gap={2}>
            {sizes && <Text size="sm">{sizes}</Text>}
            {rMultiples && <Text size="sm">{rMultiples}</Text>}
            {quantities && <Text size="sm">{quantities}</Text>}
          </Stack>
        </Alert>
      )}
      <Group gap={4}>
        <Text size="xs" c="dimmed">
          Sizes are shares of the position closed at each target; quantities are shares of winning trades.
        </Text>
      </Group>
    </Stack>
  );
}
