import { BrokerError, type AccountInfo } from '../types';
import { call } from './ct-call';
import { emit, roundTo, type CtState } from './ct-state';
import { PT, num } from './protocol';
import { arr, money, normPosition, normTrader } from './protocol-normalise';

/** Account figures: balance, equity and margin, and the unrealised P/L of open positions. */

export async function accountInfo(st: CtState): Promise<AccountInfo> {
  const res = await call(st, PT.TRADER_REQ, {}, PT.TRADER_RES);
  const t = normTrader((res.trader ?? {}) as Record<string, unknown>);
  const balance = money(t.balance, t.moneyDigits);
  const rec = await call(st, PT.RECONCILE_REQ, {}, PT.RECONCILE_RES);
  const positions = arr(rec.position).map(normPosition);
  const margin = positions.reduce((s, p) => s + money(p.usedMargin, p.moneyDigits), 0);
  const pnl = await unrealized(st);
  const floating = [...pnl.values()].reduce((s, v) => s + v, 0);
  const equity = balance + floating;
  const info: AccountInfo = {
    balance: roundTo(balance, 2),
    equity: roundTo(equity, 2),
    margin: roundTo(margin, 2),
    free_margin: roundTo(equity - margin, 2),
    currency: st.assets.get(t.depositAssetId) ?? '',
    leverage: (t.leverageInCents ?? 10_000) / 100,
  };
  emit(st, { type: 'account', info });
  return info;
}

/** Net unrealised P/L per position id in the deposit currency (empty when the server does not offer it). */
export async function unrealized(st: CtState): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  try {
    const res = await call(st, PT.GET_POSITION_UNREALIZED_PNL_REQ, {}, PT.GET_POSITION_UNREALIZED_PNL_RES);
    const md = num(res.moneyDigits);
    for (const u of arr(res.positionUnrealizedPnL))
      out.set(num(u.positionId) ?? 0, money(num(u.netUnrealizedPnL), md));
  } catch (e) {
    if (e instanceof BrokerError && e.kind === 'unavailable') throw e;
  }
  return out;
}
