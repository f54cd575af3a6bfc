import { Button, Group, Menu } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { TRADE_TEXT, type OpenPosition } from '../trade/trades.api';

export type PositionAction = 'sl' | 'tp' | 'partial';

interface Props {
  position: OpenPosition;
  closing: boolean;
  /** The menu opens upward for the last two rows (spec), so it never runs off the page. */
  upward: boolean;
  onClose: (p: OpenPosition) => void;
  onAction: (kind: PositionAction, p: OpenPosition) => void;
}

/** Close and More (Update SL, Update TP, Partial Close) of one position, in the table and the cards. */
export function PositionActions({ position: p, closing, upward, onClose, onAction }: Props) {
  return (
    <Group gap={4} wrap="nowrap">
      <Button
        size="compact-xs"
        color="red"
        variant="light"
        disabled={closing}
        onClick={() => onClose(p)}
        aria-label={closing ? TRADE_TEXT.closing : `Close ${p.instrument}`}
      >
        {closing ? TRADE_TEXT.closing : 'Close'}
      </Button>
      <Menu position={upward ? 'top-end' : 'bottom-end'} withinPortal>
        <Menu.Target>
          <Button
            size="compact-xs"
            variant="default"
            rightSection={<IconChevronDown size={12} />}
            disabled={closing}
            aria-label={`More actions for ${p.instrument}`}
          >
            More
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => onAction('sl', p)}>Update SL</Menu.Item>
          <Menu.Item onClick={() => onAction('tp', p)}>Update TP</Menu.Item>
          <Menu.Item onClick={() => onAction('partial', p)}>Partial Close</Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
