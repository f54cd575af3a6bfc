import type { SymbolInfoBody, TradeExecuteRequest } from '@tradedesk/contract';
import { brokerRegistry } from '../brokers/registry';
import {
  computePlan,
  conversionSymbols,
  rowsFromTargets,
  tradeRequest,
  type TradeForm,
} from '../../../web/src/features/trade/tradePlan';
import { DEFAULT_TARGETS } from '@tradedesk/domain';
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

/** The Place a Trade form as a trader fills it: a market BUY with a stop in pips and a 2R target. */
export function modalForm(accountId: string, symbol: string, over: Partial<TradeForm> = {}): TradeForm {
  return {
    accountId,
    symbol,
    direction: 'BUY',
    orderType: 'MARKET',
    limitPrice: '',
    riskPercent: 0.5,
    slMode: 'distance',
    slDistance: 20,
    slPrice: '',
    atrMultiplier: 1.5,
    profitMode: 'single',
    tpMode: 'rr_ratio',
    rr: 2,
    tpDistance: 40,
    tpPrice: '',
    targets: rowsFromTargets(DEFAULT_TARGETS),
    timeframe: '15M',
    reason: '',
    trader: 'Trader 1',
    ...over,
  };
}

/**
 * The request the Place a Trade modal sends: its own code (computePlan, tradeRequest), fed from the
 * API as the modal is (account details, risk settings, symbol info, symbol list) and the simulator's
 * prices at `now` for the symbol and the pairs the modal watches for the conversion.
 * `confirmMinVolume` is the trader ticking the minimum-volume confirmation.
 */
export async function modalRequest(
  h: Harness,
  now: number,
  t: Trader,
  form: TradeForm,
  confirmMinVolume = false,
): Promise<TradeExecuteRequest> {
  const get = async (url: string) => (await h.request('GET', url, { token: t.token })).json();
  const details = await get(`/api/accounts/details/${t.accountId}`);
  const risk = await get(`/api/risk/settings/${t.accountId}/`);
  const info = (await get(`/api/trades/symbol-info/${t.accountId}/${form.symbol}`)) as SymbolInfoBody;
  const symbols = (await get(`/api/trades/symbols/${t.accountId}/`)) as Array<{ symbol: string }>;
  const market = brokerRegistry(h.ctx).sim.market;
  const q = market.quoteAt(form.symbol, now);
  const conversion = conversionSymbols(
    info,
    details.currency,
    symbols.map((s) => s.symbol),
  ).map((symbol) => {
    const c = market.quoteAt(symbol, now);
    return { symbol, mid: (c.bid + c.ask) / 2 };
  });
  const result = computePlan(form, {
    bid: q.bid,
    ask: q.ask,
    info,
    equity: details.equity,
    accountCurrency: details.currency,
    maxLotSize: risk.max_lot_size,
    atr: null,
    conversion,
    leverage: details.leverage,
    freeMargin: details.free_margin,
  });
  if (!result.ok) throw new Error(`The modal shows no plan: ${result.message}`);
  return tradeRequest(form, result.plan, confirmMinVolume);
}

/**
 * The lot size the Place a Trade modal would send for a stop `slDistance` price units away:
 * the modal's own code, with every clamp it applies (max_lot_size included).
 */
export async function clientLots(
  h: Harness,
  now: number,
  t: Trader,
  symbol: string,
  riskPercent: number,
  slDistance: number,
): Promise<number> {
  const info = (
    await h.request('GET', `/api/trades/symbol-info/${t.accountId}/${symbol}`, { token: t.token })
  ).json() as SymbolInfoBody;
  const form = modalForm(t.accountId, symbol, { riskPercent, slDistance: slDistance / info.pip_size });
  return (await modalRequest(h, now, t, form, true)).lot_size;
}

/** A market EURUSD buy a fresh Demo account accepts at the test clocks: 0.25 lots, a 20-pip stop, 2R. */
export const EURUSD_BUY = {
  symbol: 'EURUSD',
  lot_size: 0.25,
  direction: 'BUY',
  order_type: 'MARKET',
  risk_percent: 0.5,
  stop_loss_distance: 0.002,
  rr_ratio: 2,
} as const;

/** Opens EURUSD_BUY on the trader's Demo account through the API and returns the trade's id. */
export async function openEurusdTrade(h: Harness, t: Trader): Promise<string> {
  const res = await h.request('POST', '/api/trades/execute/', {
    token: t.token,
    body: { account_id: t.accountId, ...EURUSD_BUY },
  });
  if (res.statusCode !== 200) throw new Error(`execute answered ${res.statusCode}: ${res.body}`);
  return res.json().trade_id as string;
}

/**
 * Saves the account's risk rules: every limit off (the defaults of a new account) except those given.
 * Throws when the server refuses them, so a test never runs without the rules it asked for.
 */
export async function setRiskRules(h: Harness, t: Trader, rules: Record<string, unknown>): Promise<void> {
  const res = await h.request('PUT', `/api/risk/settings/${t.accountId}/`, {
    token: t.token,
    body: {
      max_daily_loss: null,
      risk_percent: 0.5,
      max_trade_risk: null,
      max_open_positions: null,
      enforce_cooldowns: false,
      consecutive_loss_limit: 3,
      cooldown_period: '01:00:00',
      max_lot_size: null,
      max_open_trades_same_symbol: null,
      ...rules,
    },
  });
  if (res.statusCode !== 200) throw new Error(`risk settings refused: ${res.statusCode} ${res.body}`);
}
