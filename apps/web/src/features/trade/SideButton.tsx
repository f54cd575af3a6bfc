import { Button, Stack, Text } from '@mantine/core';

/** A BUY fills at the ask, a SELL at the bid: each button shows the price it would get. */
export const SIDES = [
  { direction: 'BUY', color: 'teal', label: 'Buy (Ask)', testId: 'ask' },
  { direction: 'SELL', color: 'red', label: 'Sell (Bid)', testId: 'bid' },
] as const;

export function SideButton({
  side,
  selected,
  onSelect,
  price,
  disabledBy = null,
}: {
  side: (typeof SIDES)[number];
  selected: boolean;
  onSelect: () => void;
  price: string;
  /** Id of the element that says why trading is blocked (a closed market); the button is disabled. */
  disabledBy?: string | null;
}) {
  return (
    <Button
      color={side.color}
      variant={selected ? 'filled' : 'light'}
      aria-pressed={selected}
      onClick={onSelect}
      h={56}
      disabled={!!disabledBy}
      aria-describedby={disabledBy ?? undefined}
    >
      <Stack gap={0} align="center">
        <Text size="xs" fw={600}>
          {side.label}
        </Text>
        <Text fw={700} ff="monospace" data-testid={side.testId}>
          {price}
        </Text>
      </Stack>
    </Button>
  );
}
