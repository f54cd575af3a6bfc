import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { WebSocket } from 'ws';
import {
  accountParam,
  accountSymbolParams,
  errorBody,
  symbolInfo,
  type MarketSessionBody,
  symbolList,
  WS_CLOSE,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { brokerRegistry } from '../../brokers/registry';
import { knownErrorToHttp } from '../../lib/error-status';
import { authoriseSocket, closeSocket } from '../../lib/socket-auth';
import { BrokerError, type BrokerAdapter, type MarketSession, type SymbolInfo } from '../../brokers/types';
import { HttpError, notFound } from '../../lib/http-error';
import { priceHub } from '../../market/price-hub';
import { accountsService } from '../accounts/accounts.service';

/** Symbols are matched as written, then upper-cased (`eurusd` finds `EURUSD`). */
async function findSymbol(adapter: BrokerAdapter, symbol: string): Promise<SymbolInfo> {
  try {
    return await adapter.symbolInfo(symbol);
  } catch (e) {
    if (!(e instanceof BrokerError) || e.kind !== 'not_found' || symbol === symbol.toUpperCase()) throw e;
    return adapter.symbolInfo(symbol.toUpperCase());
  }
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const sessionBody = (m: MarketSession): MarketSessionBody => ({
  open: m.open,
  next_open: iso(m.nextOpen),
  next_close: iso(m.nextClose),
});

export function registerMarketRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const accounts = accountsService(ctx);
  const brokers = brokerRegistry(ctx);
  // A replaced or removed broker link ends its price sockets; the clients reconnect to the new one.
  brokers.onEvicted((accountId) =>
    priceHub(ctx).dropAccount(accountId, WS_CLOSE.accountChanged, 'The account changed; reconnecting.'),
  );

  r.get(
    '/api/trades/symbols/:account/',
    {
      schema: {
        tags: ['trades'],
        params: accountParam,
        response: { 200: symbolList, 404: errorBody, 502: errorBody },
      },
    },
    async (request) => {
      const row = await accounts.owned(request.user, request.params.account);
      // In the broker's own order (the simulator lists the majors first).
      return brokers.use(row, (adapter) => adapter.symbols());
    },
  );

  r.get(
    '/api/trades/symbol-info/:account/:symbol',
    {
      schema: {
        tags: ['trades'],
        params: accountSymbolParams,
        response: { 200: symbolInfo, 404: errorBody, 502: errorBody },
      },
    },
    async (request) => {
      const row = await accounts.owned(request.user, request.params.account);
      return brokers.use(row, async (adapter) => {
        try {
          const info = await findSymbol(adapter, request.params.symbol);
          const session = adapter.marketSession?.(info.symbol);
          return session ? { ...info, market: sessionBody(session) } : info;
        } catch (e) {
          if (e instanceof BrokerError && e.kind === 'not_found')
            throw notFound(`Unknown symbol: ${request.params.symbol}.`);
          throw e;
        }
      });
    },
  );

  app.get<{ Params: { account: string; symbol: string }; Querystring: { token?: string } }>(
    '/ws/prices/:account/:symbol',
    // warn: the access token may sit in the query string, and info-level request lines would log the URL.
    { websocket: true, schema: { hide: true }, logLevel: 'warn' },
    (socket: WebSocket, request) => {
      const { account: accountId, symbol } = request.params;
      let unwatch: (() => void) | undefined;
      let finished = false;
      const close = (code: number, reason: string) => {
        finished = true;
        closeSocket(socket, code, reason);
      };
      socket.on('close', () => {
        finished = true;
        unwatch?.();
      });
      socket.on('error', () => unwatch?.());

      authoriseSocket(socket, ctx.tokens, request.query.token, (user) => {
        void (async () => {
          try {
            const row = await accounts.owned(user, accountId);
            const adapter = await brokers.connected(row);
            const info = await findSymbol(adapter, symbol);
            if (finished || socket.readyState !== 1) return;
            unwatch = priceHub(ctx).watch(
              row.id,
              info.symbol,
              // Every message says whether the market is open, from the broker's timetable when it has one.
              (onQuote) =>
                adapter.subscribeQuotes(info.symbol, (q) => onQuote(q, adapter.marketSession?.(info.symbol))),
              socket,
            );
          } catch (e) {
            const mapped = knownErrorToHttp(e);
            if (mapped instanceof HttpError && mapped.statusCode === 404) {
              return close(
                WS_CLOSE.notFound,
                e instanceof BrokerError ? `Unknown symbol: ${symbol}.` : 'Account not found.',
              );
            }
            if (mapped instanceof HttpError) return close(WS_CLOSE.brokerDown, String(mapped.detail));
            request.log.error({ err: e }, 'price stream failed to start');
            return close(1011, 'Internal error.');
          }
        })();
      });
    },
  );
}
