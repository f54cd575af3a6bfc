import { useState } from 'react';
import { Badge, Button, Card, Group, Stack, Text, type MantineColor } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { useLivePrice, type LivePriceStatus, type PriceMove } from './useLivePrice';
import classes from './LiveQuote.module.css';
import { lastQuoteText } from './quoteTime';
import { MarketStateDetail, useMarketState } from './MarketStateBadge';

export const STATUS_LABEL: Record<LivePriceStatus, string> = {
  idle: 'Idle',
  connecting: 'Connecting…',
  live: 'Live',
  paused: 'Paused',
  reconnecting: 'Reconnecting…',
  error: 'Unavailable',
};

const STATUS_COLOR: Record<LivePriceStatus, MantineColor> = {
  idle: 'gray',
  connecting: 'blue',
  live: 'teal',
  paused: 'yellow',
  reconnecting: 'orange',
  error: 'red',
};

function Price({ label, text, moved }: { label: string; text: string; moved: PriceMove }) {
  const cls = [classes.price, moved === 'up' ? classes.up : moved === 'down' ? classes.down : '']
    .filter(Boolean)
    .join(' ');
  return (
    <Stack gap={0} align="flex-start">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      {/* The key restarts the flash animation on every new price. */}
      <output key={text} aria-label={label} aria-live="off" className={cls}>
        {text}
      </output>
    </Stack>
  );
}

export interface LiveQuoteProps {
  accountId: string;
  symbol: string;
  /** Paused from outside (e.g. while a trade executes); the Pause button pauses as well. */
  paused?: boolean;
}

/**
 * Bid and ask of one symbol, live from the account's broker, with the connection state and a
 * Pause/Resume button (pausing closes the socket). See `useLivePrice` for the behaviour.
 */
export function LiveQuote({ accountId, symbol, paused = false }: LiveQuoteProps) {
  const [userPaused, setUserPaused] = useState(false);
  const price = useLivePrice(accountId, symbol, { paused: paused || userPaused });
  const market = useMarketState(price, symbol);
  // Connected, the badge says what the market does (a frozen weekend price is "Closed", not "Live");
  // otherwise what the connection does. An unavailable broker shows at once.
  const byMarket =
    market.state.kind === 'unavailable' || (price.status === 'live' && market.state.kind !== 'waiting');
  const badge = byMarket
    ? { label: market.state.kind === 'open' ? STATUS_LABEL.live : market.label, color: market.color }
    : { label: STATUS_LABEL[price.status], color: STATUS_COLOR[price.status] };
  const spread =
    price.bid !== null && price.ask !== null && price.info
      ? (price.ask - price.bid) / price.info.pip_size
      : null;
  return (
    <Card withBorder padding="sm" role="group" aria-label={`${symbol} live quote`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={700}>{symbol}</Text>
          <Badge variant="light" color={badge.color} role="status" aria-label={`Price feed: ${badge.label}`}>
            {badge.label}
          </Badge>
        </Group>
        <Group gap="lg" wrap="nowrap">
          <Price label="Bid" text={price.format(price.bid)} moved={price.bidMove} />
          <Price label="Ask" text={price.format(price.ask)} moved={price.askMove} />
          {spread !== null && (
            <Stack gap={0}>
              <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                Spread
              </Text>
              <Text size="sm" ff="monospace">
                {spread.toFixed(1)} pips
              </Text>
            </Stack>
          )}
        </Group>
        <MarketStateDetail view={market} />
        {price.error && market.state.kind !== 'unavailable' && (
          <Text size="sm" c={price.status === 'error' ? 'red' : 'orange'} role="alert">
            {price.error}
          </Text>
        )}
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed">
            {price.time
              ? lastQuoteText(price.time)
              : price.status === 'live'
                ? 'Waiting for a quote (the market may be closed).'
                : 'No quote yet'}
          </Text>
          {!paused && (
            <Button
              size="compact-sm"
              variant="light"
              leftSection={userPaused ? <IconPlayerPlay size={14} /> : <IconPlayerPause size={14} />}
              onClick={() => setUserPaused((p) => !p)}
            >
              {userPaused ? 'Resume' : 'Pause'}
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
