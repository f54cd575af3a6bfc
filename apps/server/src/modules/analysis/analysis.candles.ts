import { concatSeries, type CandleSeries } from '@tradedesk/domain';
import type { AppContext } from '../../context';
import { brokerRegistry } from '../../brokers/registry';
import { BrokerError } from '../../brokers/types';
import { badRequest } from '../../lib/http-error';
import { candleStore, type SeriesRequest } from '../../market/candle-store';
import { candleRepo } from '../../market/candle-repo';
import { accountsRepo } from '../accounts/accounts.repo';
import type { InstrumentRow } from './instruments.repo';

/**
 * Where an instrument's history comes from: the simulator (the default, deterministic, offline), the
 * user's chosen account's platform, or the user's CSV imports. The candles themselves are read and
 * kept by the candle store; this file is the analysis module's only door to it.
 */

export interface SymbolSource {
  symbol: string;
  exchange: string;
  source: InstrumentRow['source'];
  accountId: string | null;
  /** For imports: the span held, known up front. */
  span?: { from: number; to: number };
}

/** Checks that the source knows `symbol`; 400 with a clear detail when it does not. */
export async function resolveSymbol(
  ctx: AppContext,
  userId: string,
  symbol: string,
  opts: { accountId: string | null; csv: boolean },
): Promise<SymbolSource> {
  const unknown = () =>
    badRequest(`Unknown instrument symbol: ${symbol}. The source has no such instrument.`);
  if (opts.csv) {
    const span = await candleRepo(ctx.db).span({ source: `csv:${userId}`, userId, symbol, timeframe: 'M1' });
    if (!span) throw badRequest(`No imported M1 candles for ${symbol}: import a CSV file first.`);
    return { symbol, exchange: 'CSV', source: 'csv', accountId: null, span };
  }
  const account = opts.accountId ? await accountsRepo(ctx.db).ownedOr404(userId, opts.accountId) : undefined;
  if (!account || account.platform === 'SIM') {
    if (!brokerRegistry(ctx).sim.market.spec(symbol)) throw unknown();
    return { symbol, exchange: 'SIM', source: account ? 'account' : 'sim', accountId: account?.id ?? null };
  }
  try {
    await brokerRegistry(ctx).use(account, (a) => a.symbolInfo(symbol));
  } catch (e) {
    if (e instanceof BrokerError && e.kind === 'not_found') throw unknown();
    if ((e as { statusCode?: number }).statusCode === 404) throw unknown();
    throw e;
  }
  return { symbol, exchange: account.broker || account.platform, source: 'account', accountId: account.id };
}

/** The source's clock: the simulator's for SIM history, the real one otherwise. */
export function sourceNow(ctx: AppContext, instrument: InstrumentRow): number {
  return instrument.source === 'sim' ? brokerRegistry(ctx).sim.now() : Date.now();
}

function request(instrument: InstrumentRow, fromMs: number, toMs: number): SeriesRequest {
  return {
    userId: instrument.user_id,
    ...(instrument.account_id ? { accountId: instrument.account_id } : {}),
    ...(instrument.source === 'csv' ? { source: 'csv' as const } : { source: 'sim' as const }),
    symbol: instrument.symbol,
    timeframe: 'M1',
    fromMs,
    toMs,
  };
}

/** A month of M1 per read: the store fetches and keeps what it lacks, and the caller can report progress. */
const WINDOW_MS = 30 * 86_400_000;

/** The instrument's M1 bars opening in [fromMs, toMs), oldest first; `onWindow(fraction)` after each month. */
export async function fetchM1(
  ctx: AppContext,
  instrument: InstrumentRow,
  fromMs: number,
  toMs: number,
  onWindow?: (fraction: number) => Promise<void>,
): Promise<CandleSeries> {
  const store = candleStore(ctx);
  const parts: CandleSeries[] = [];
  for (let from = fromMs; from < toMs; from += WINDOW_MS) {
    const to = Math.min(toMs, from + WINDOW_MS);
    parts.push(await store.series(request(instrument, from, to)));
    await onWindow?.((to - fromMs) / (toMs - fromMs));
  }
  return concatSeries(parts);
}
