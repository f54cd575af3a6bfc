import { calculateLotSize } from '@tradedesk/domain';
import { brokerRegistry } from '../brokers/registry';
import type { Harness } from './harness';

/** A signed-in user and the Demo account every new user gets, as the trading tests act through the API. */
export interface Trader {
  token: string;
  userId: string;
  accountId: string;
}

/** A fresh user, seen as a trader: their token and their (only) Demo account, read through the API. */
export async function newTrader(h: Harness, username: string): Promise<Trader> {
  const { id, token } = await h.user(username);
  const accounts = (await h.request('GET', '/api/accounts/', { token })).json() as Array<{ id: string }>;
  return { token, userId: id, accountId: accounts[0]!.id };
}

/**
 * The lot size the Place a Trade modal would send: the same domain function, fed from the API.
 * `now` is the sim clock the test set, for converting the quote currency like the modal's quote does.
 */
export async function clientLots(
  h: Harness,
  now: number,
  t: Trader,
  symbol: string,
  riskPercent: number,
  slDistance: number,
): Promise<number> {
  const details = (await h.request('GET', `/api/accounts/details/${t.accountId}`, { token: t.token })).json();
  const info = (
    await h.request('GET', `/api/trades/symbol-info/${t.accountId}/${symbol}`, { token: t.token })
  ).json();
  const rate =
    info.quote_currency === details.currency
      ? 1
      : brokerRegistry(h.ctx).sim.market.convert(1, info.quote_currency, details.currency, now);
  return calculateLotSize({
    equity: details.equity,
    riskPercent,
    slDistance,
    contractSize: info.contract_size,
    quoteToAccountRate: rate,
    limits: info,
    accountCurrency: details.currency,
  }).volume;
}
