import { Badge } from '@mantine/core';

/** Marks a position a bot's live run opened (dashboard open positions). */
export function BotBadge({ name }: { name: string | undefined }) {
  if (!name) return null;
  return (
    <Badge size="xs" variant="light" color="violet" title={`Opened by the bot ${name}`} ml={4}>
      Bot
    </Badge>
  );
}
