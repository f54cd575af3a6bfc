import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { symbolInfo, type MarketSessionBody, type SymbolInfoBody } from '@tradedesk/contract';
import { errorMessage } from '../../app/errors';
import { api } from '../../app/api';
import { session } from '../../app/session';
import { openPriceFeed } from './priceFeed';

/**
 * Live bid/ask for one account and symbol over `/ws/prices/{account}/{symbol}`.
 *
 * ```tsx
 * const price = useLivePrice(accountId, symbol, { paused: executing });
 * <Button disabled={price.ask === null}>Buy (Ask) {price.format(price.ask)}</Button>
 * <Button disabled={price.bid === null}>Sell (Bid) {price.format(price.bid)}</Button>
 * ```
 *
 * - One socket per (accountId, symbol). It is closed when either changes, when `paused` turns true
 *   (the spec pauses the feed while a trade executes) and on unmount; resuming opens a fresh one.
 * - The token goes in the first message `{"token": ...}`, never in the URL.
 * - A dropped connection (network, server restart, broker down) reconnects with exponential backoff
 *   (1 s doubling to 30 s, reset by the next quote). A refused token or an unknown account/symbol
 *   does not retry: `status` is `error` and `error` says why.
 * - `bid`/`ask` keep the last quote while paused or reconnecting; they are null until the first one.
 * - `bidMove`/`askMove` say whether the last change went up or down, and `tick` counts quotes, so a
 *   component can flash on every change.
 * - `digits`: 5, or the symbol's digits when it has fewer (from `GET /trades/symbol-info/...`);
 *   `format(x)` renders a price with them ('—' for null).
 */
export type LivePriceStatus = 'idle' | 'connecting' | 'live' | 'paused' | 'reconnecting' | 'error';
export type PriceMove = 'up' | 'down' | null;

/** What the socket has said so far for the current selection. */
interface FeedState {
  bid: number | null;
  ask: number | null;
  /** Server time of the last quote (ISO-8601). */
  time: string | null;
  status: LivePriceStatus;
  /** Why the feed stopped or is retrying, in the server's words when it gave any. */
  error: string | null;
  bidMove: PriceMove;
  askMove: PriceMove;
  /** Number of quotes received for the current selection. */
  tick: number;
  /** The market's session as the last message said (brokers with a timetable only). */
  market: MarketSessionBody | null;
  /** When the last quote arrived, on this browser's clock (staleness is measured on it). */
  receivedAt: number | null;
  /** The server's reason while its broker is unavailable (the socket closed with 4502). */
  unavailable: string | null;
}

export interface LivePrice extends FeedState {
  digits: number;
  /** The symbol's info (pip size, tick size, contract size, digits, volume limits) once loaded. */
  info: SymbolInfoBody | undefined;
  /** Why the symbol info could not be loaded (e.g. the broker's 502 reason), else null. */
  infoError: string | null;
  format: (price: number | null) => string;
}

export interface LivePriceOptions {
  paused?: boolean;
}

export const MAX_PRICE_DIGITS = 5;

export const symbolInfoKey = (accountId: string, symbol: string) =>
  ['symbol-info', accountId, symbol] as const;

/** `GET /trades/symbol-info/{account}/{symbol}`: pip size, tick size, contract size, digits, volumes. */
export function useSymbolInfo(accountId: string | null | undefined, symbol: string | null | undefined) {
  return useQuery({
    queryKey: symbolInfoKey(accountId ?? '', symbol ?? ''),
    queryFn: () =>
      api.get(`/trades/symbol-info/${encodeURIComponent(accountId!)}/${encodeURIComponent(symbol!)}`, {
        schema: symbolInfo,
      }),
    enabled: !!accountId && !!symbol,
    staleTime: 10 * 60_000,
    retry: false,
  });
}

export function priceDigits(info: SymbolInfoBody | undefined): number {
  if (!info || !Number.isInteger(info.digits) || info.digits < 0) return MAX_PRICE_DIGITS;
  return Math.min(MAX_PRICE_DIGITS, info.digits);
}

export function pricesUrl(accountId: string, symbol: string): string {
  const proto = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${window.location.host}/ws/prices/${encodeURIComponent(accountId)}/${encodeURIComponent(symbol)}`;
}

const EMPTY: FeedState = {
  bid: null,
  ask: null,
  time: null,
  status: 'idle',
  error: null,
  bidMove: null,
  askMove: null,
  tick: 0,
  market: null,
  receivedAt: null,
  unavailable: null,
};

const move = (prev: number | null, next: number): PriceMove =>
  prev === null || prev === next ? null : next > prev ? 'up' : 'down';

export function useLivePrice(
  accountId: string | null | undefined,
  symbol: string | null | undefined,
  options: LivePriceOptions = {},
): LivePrice {
  const paused = !!options.paused;
  const [feed, setFeed] = useState<FeedState>(EMPTY);
  const info = useSymbolInfo(accountId, symbol);
  const selection = accountId && symbol ? `${accountId}\u0000${symbol}` : null;
  const [shownSelection, setShownSelection] = useState(selection);

  // A new selection starts from nothing: the old symbol's prices must never show under the new one.
  if (shownSelection !== selection) {
    setShownSelection(selection);
    setFeed(EMPTY);
  }

  useEffect(() => {
    if (!accountId || !symbol) {
      setFeed((f) => ({ ...f, status: 'idle', error: null }));
      return;
    }
    if (paused) {
      setFeed((f) => ({ ...f, status: 'paused', error: null, bidMove: null, askMove: null }));
      return;
    }

    const socketFeed = openPriceFeed(
      { url: pricesUrl(accountId, symbol), token: session.token },
      {
        onStatus: (status, error, brokerDown) =>
          setFeed((f) => ({ ...f, status, error, unavailable: brokerDown ? error : null })),
        onQuote: (q) =>
          setFeed((f) => ({
            bid: q.bid,
            ask: q.ask,
            time: q.time,
            status: 'live',
            error: null,
            bidMove: move(f.bid, q.bid) ?? f.bidMove,
            askMove: move(f.ask, q.ask) ?? f.askMove,
            tick: f.tick + 1,
            market: q.market ?? null,
            receivedAt: Date.now(),
            unavailable: null,
          })),
      },
    );
    return () => socketFeed.close();
  }, [accountId, symbol, paused]);

  const digits = priceDigits(info.data);
  return {
    ...feed,
    digits,
    info: info.data,
    infoError: info.isError ? errorMessage(info.error, 'Symbol info is unavailable.') : null,
    format: (price) => (price === null || !Number.isFinite(price) ? '—' : price.toFixed(digits)),
  };
}
