import { priceMessage, WS_CLOSE, type PriceMessage } from '@tradedesk/contract';

/** The life of one price socket, without React: `useLivePrice` drives it, tests drive it directly. */
export type FeedStatus = 'connecting' | 'live' | 'reconnecting' | 'error';

export interface PriceFeedHandlers {
  /** `brokerDown`: the server closed with 4502, its broker is unavailable and `error` is its reason. */
  onStatus: (status: FeedStatus, error: string | null, brokerDown?: boolean) => void;
  onQuote: (quote: PriceMessage) => void;
}

export interface PriceFeedOptions {
  url: string;
  /** Read at every (re)connect, so a refreshed token is used. */
  token: () => string | null;
  backoffStartMs?: number;
  backoffMaxMs?: number;
  /** The WebSocket class; the browser's by default. */
  WebSocketImpl?: typeof WebSocket;
}

export const BACKOFF_START_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;

/**
 * Opens `url`, sends `{"token": ...}` as the first message and reports quotes. A drop reconnects after
 * a delay that doubles from `backoffStartMs` up to `backoffMaxMs` and starts over after a quote; a
 * refused token (4401) or an unknown account or symbol (4404) stops with status `error`.
 * `close()` ends it for good (no further callbacks).
 */
export function openPriceFeed(opts: PriceFeedOptions, handlers: PriceFeedHandlers): { close: () => void } {
  const Impl = opts.WebSocketImpl ?? WebSocket;
  const start = opts.backoffStartMs ?? BACKOFF_START_MS;
  const max = opts.backoffMaxMs ?? BACKOFF_MAX_MS;
  let backoff = start;
  let socket: WebSocket | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const open = (reconnecting: boolean) => {
    // A reconnect keeps reporting 'reconnecting' with the reason of the drop until it is live again.
    if (!reconnecting) handlers.onStatus('connecting', null);
    const ws = new Impl(opts.url);
    socket = ws;
    ws.onopen = () => {
      if (stopped) return;
      ws.send(JSON.stringify({ token: opts.token() ?? '' }));
      // Connected; quotes follow while the market is open (a closed market sends none).
      handlers.onStatus('live', null);
    };
    ws.onmessage = (ev: MessageEvent) => {
      if (stopped) return;
      let data: unknown;
      try {
        data = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      const parsed = priceMessage.safeParse(data);
      if (!parsed.success) return;
      backoff = start;
      handlers.onQuote(parsed.data);
    };
    ws.onerror = () => {
      // The close event that follows decides what happens next.
    };
    ws.onclose = (ev: CloseEvent) => {
      if (stopped || socket !== ws) return;
      socket = null;
      if (ev.code === WS_CLOSE.unauthorized || ev.code === WS_CLOSE.notFound) {
        handlers.onStatus('error', ev.reason || 'The price feed was refused.');
        return;
      }
      const wait = backoff;
      backoff = Math.min(backoff * 2, max);
      handlers.onStatus(
        'reconnecting',
        ev.reason || 'Connection to the price feed was lost.',
        ev.code === WS_CLOSE.brokerDown,
      );
      retryTimer = setTimeout(() => open(true), wait);
    };
  };

  open(false);

  return {
    close() {
      if (stopped) return;
      stopped = true;
      clearTimeout(retryTimer);
      const ws = socket;
      socket = null;
      if (!ws) return;
      // Closing before the handshake finished logs a browser warning: close as soon as it opens.
      if (ws.readyState === ws.CONNECTING) ws.onopen = () => ws.close(1000);
      else ws.close(1000);
    },
  };
}
