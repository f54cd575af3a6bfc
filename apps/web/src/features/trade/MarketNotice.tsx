import { Alert } from '@mantine/core';
import { IconAlertTriangle, IconClockPause, IconPlugConnectedX } from '@tabler/icons-react';
import type { MarketStateView } from '../market/marketStateView';

export const MARKET_NOTICE_ID = 'trade-market-notice';

/**
 * Why the ticket cannot trade now, under Buy/Sell: a closed market with its next open time, an
 * unavailable broker with the server's reason, or a price that stopped moving. Nothing while open.
 */
export function MarketNotice({ view }: { view: MarketStateView }) {
  const { state } = view;
  if (state.kind === 'closed')
    return (
      <Alert
        id={MARKET_NOTICE_ID}
        color="gray"
        variant="light"
        icon={<IconClockPause size={16} />}
        title={view.blocked}
        role="alert"
      >
        {view.detail}
      </Alert>
    );
  if (state.kind === 'unavailable')
    return (
      <Alert
        id={MARKET_NOTICE_ID}
        color="red"
        variant="light"
        icon={<IconPlugConnectedX size={16} />}
        title="Broker unavailable"
        role="alert"
      >
        {state.reason}
      </Alert>
    );
  if (state.kind === 'stale')
    return (
      <Alert
        id={MARKET_NOTICE_ID}
        color="orange"
        variant="light"
        icon={<IconAlertTriangle size={16} />}
        role="status"
      >
        {view.detail}
      </Alert>
    );
  return null;
}
