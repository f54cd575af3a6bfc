import {
  currencyDecimals,
  evaluateRiskRules,
  fromMinor,
  toMinor,
  type RiskDecision,
  type RiskSettings,
} from '@tradedesk/domain';
import { RISK_SETTINGS_DEFAULTS } from '@tradedesk/contract';
import type { Db } from '../../db';
import type { AccountInfo } from '../../brokers/types';
import type { TradingAccountsTable } from '../../db/schema';
import type { AuthUser } from '../../request-context';
import { riskRepo } from '../risk/risk.repo';
import { money, openRisk } from './trades.model';
import { tradesRepo } from './trades.repo';

/** The account's risk settings as the rules read them (the defaults when none were saved). */
export async function riskSettingsOf(db: Db, user: AuthUser, accountId: string): Promise<RiskSettings> {
  const row = await riskRepo(db).settings(user.id, accountId);
  if (!row) return { ...RISK_SETTINGS_DEFAULTS };
  return { ...row, enforce_cooldowns: row.enforce_cooldowns === 1 };
}

const on = (v: number | null | undefined) => typeof v === 'number' && v > 0;

/**
 * Evaluates the risk rules for an order: reads only what an enabled rule needs. The daily-loss rule
 * measures against the balance at the start of the day, derived from today's deals (profit,
 * commission, swap; an open trade's entry commission included), and counts today's realised P/L
 * with commissions plus the open risk plus this order.
 */
export async function checkRiskRules(
  db: Db,
  args: {
    user: AuthUser;
    account: TradingAccountsTable;
    settings: RiskSettings;
    info: AccountInfo;
    nowMs: number;
    order: { symbol: string; volume: number; riskMinor: number };
  },
): Promise<RiskDecision> {
  const { user, account, settings, info, nowMs } = args;
  const repo = tradesRepo(db);
  const daily = on(settings.max_daily_loss);
  const needOpen = on(settings.max_open_positions) || on(settings.max_open_trades_same_symbol) || daily;
  const needClosed = daily || (settings.enforce_cooldowns === true && on(settings.consecutive_loss_limit));
  const dayStart = new Date(nowMs);
  dayStart.setUTCHours(0, 0, 0, 0);
  const since = dayStart.toISOString();
  const open = needOpen
    ? (await repo.liveFor(user.id, account.id)).map((t) => ({ symbol: t.symbol, open_risk: openRisk(t) }))
    : [];
  const closed = needClosed
    ? (await repo.closedSince(user.id, account.id, since)).map((t) => ({
        profit_loss: money(t.actual_pl_minor, info.currency) ?? 0,
        closed_at: t.closed_at!,
      }))
    : [];
  const decimals = currencyDecimals(info.currency);
  const realised = daily ? fromMinor(await repo.dealMoneySince(user.id, account.id, since), decimals) : null;
  return evaluateRiskRules(
    settings,
    {
      currency: info.currency,
      equity: info.equity,
      balance: info.balance,
      ...(realised !== null
        ? {
            realised_today: realised,
            day_start_balance: fromMinor(
              toMinor(info.balance, decimals) - toMinor(realised, decimals),
              decimals,
            ),
          }
        : {}),
      open_positions: open,
      closed_today: closed,
      now: nowMs,
    },
    { symbol: args.order.symbol, volume: args.order.volume, risk: fromMinor(args.order.riskMinor, decimals) },
  );
}
