import { useEffect, useState } from 'react';
import { Badge, Text } from '@mantine/core';
import type { LivePrice } from './useLivePrice';
import { marketStateView, type MarketStateView } from './marketStateView';

/** Re-read every few seconds, so a quiet feed turns "Stale" without a new message. */
const CLOCK_MS = 5_000;

/** The market state of a live price: the feed's session first, the symbol info's before the first quote. */
export function useMarketState(price: LivePrice, symbol: string): MarketStateView {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), CLOCK_MS);
    return () => clearInterval(t);
  }, []);
  return marketStateView({
    symbol,
    nowMs: Math.max(now, price.receivedAt ?? 0),
    session: price.market ?? price.info?.market,
    receivedAt: price.receivedAt,
    unavailable:
      price.unavailable ??
      price.infoError ??
      (price.status === 'error' ? (price.error ?? 'The price feed was refused.') : null),
  });
}

export function MarketStateBadge({ view, symbol }: { view: MarketStateView; symbol: string }) {
  return (
    <Badge
      variant="light"
      color={view.color}
      role="status"
      aria-label={`${symbol} market: ${view.label}`}
      data-testid="market-state"
    >
      {view.label}
    </Badge>
  );
}

/** The line under a price that says why (closed until…, stale for…, the broker's reason). */
export function MarketStateDetail({ view }: { view: MarketStateView }) {
  if (!view.detail) return null;
  return (
    <Text
      size="sm"
      c={view.state.kind === 'unavailable' ? 'red.8' : view.state.kind === 'stale' ? 'orange.9' : undefined}
      data-testid="market-state-detail"
    >
      {view.detail}
    </Text>
  );
}
