import type { MantineColor } from '@mantine/core';
import type { MarketSessionBody } from '@tradedesk/contract';
import { marketState, tradingBlockedReason, type MarketState } from '@tradedesk/domain';

/** What the screens show of a market state: a badge, a line of detail and whether trading is blocked. */
export interface MarketStateView {
  state: MarketState;
  label: string;
  color: MantineColor;
  /** One line under the price: when it opens, how long it has been quiet, or the broker's reason. */
  detail: string | null;
  /** Why Buy/Sell and Execute are disabled, else null. */
  blocked: string | null;
}

/** "Sun 11 Jan, 23:00 CET": the instant in the trader's (browser's) time zone, with the zone named. */
export function formatOpensAt(ms: number, timeZone?: string): string {
  return new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(ms));
}

export interface MarketFacts {
  symbol: string;
  nowMs: number;
  /** The feed's last word on the session, else the symbol info's. */
  session: MarketSessionBody | null | undefined;
  receivedAt: number | null;
  unavailable: string | null;
  timeZone?: string;
}

const LABEL: Record<MarketState['kind'], string> = {
  open: 'Open',
  closed: 'Closed',
  stale: 'Stale',
  unavailable: 'Unavailable',
  waiting: 'Waiting',
};
const COLOR: Record<MarketState['kind'], MantineColor> = {
  open: 'teal',
  closed: 'gray',
  stale: 'orange',
  unavailable: 'red',
  waiting: 'blue',
};

export function marketStateView(f: MarketFacts): MarketStateView {
  const session = f.session
    ? {
        open: f.session.open,
        nextOpenMs: f.session.next_open ? Date.parse(f.session.next_open) : null,
        nextCloseMs: f.session.next_close ? Date.parse(f.session.next_close) : null,
      }
    : null;
  const state = marketState({
    nowMs: f.nowMs,
    session,
    lastQuoteAtMs: f.receivedAt,
    unavailableReason: f.unavailable,
  });
  let detail: string | null = null;
  if (state.kind === 'closed')
    detail =
      state.nextOpenMs === null
        ? 'Market closed.'
        : `Market closed. Opens ${formatOpensAt(state.nextOpenMs, f.timeZone)}.`;
  else if (state.kind === 'stale')
    detail = `No new price for ${Math.round(state.quietForMs / 1000)} s: the price shown may be out of date.`;
  else if (state.kind === 'unavailable') detail = state.reason;
  return {
    state,
    label: LABEL[state.kind],
    color: COLOR[state.kind],
    detail,
    blocked: tradingBlockedReason(state, f.symbol),
  };
}
