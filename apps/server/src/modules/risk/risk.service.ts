import {
  RISK_SETTINGS_DEFAULTS,
  RISK_SETTINGS_LOCK_DAYS,
  RISK_SETTINGS_MESSAGES,
  type RiskSettings,
  type RiskSettingsPatch,
  type RiskSettingsUpdate,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { accountsRepo } from '../accounts/accounts.repo';
import type { RiskSettingsTable } from '../../db/schema';
import { conflict, notFound } from '../../lib/http-error';
import { nowIso } from '../../lib/ids';
import type { AuthUser } from '../../request-context';
import { toProfitProfile } from '../profit-profiles/profit-profiles.service';
import { isUniqueViolation } from '../../db/unique-violation';
import { profitProfilesRepo } from '../profit-profiles/profit-profiles.repo';
import { riskRepo, type RiskRuleFields } from './risk.repo';

const LOCK_MS = RISK_SETTINGS_LOCK_DAYS * 24 * 3600 * 1000;

const ruleFields = (b: RiskSettingsUpdate): RiskRuleFields => ({
  max_daily_loss: b.max_daily_loss,
  risk_percent: b.risk_percent,
  max_trade_risk: b.max_trade_risk,
  max_open_positions: b.max_open_positions,
  enforce_cooldowns: b.enforce_cooldowns ? 1 : 0,
  consecutive_loss_limit: b.consecutive_loss_limit,
  cooldown_period: b.cooldown_period,
  max_lot_size: b.max_lot_size,
  max_open_trades_same_symbol: b.max_open_trades_same_symbol,
});

const DEFAULT_FIELDS: RiskRuleFields = ruleFields(RISK_SETTINGS_DEFAULTS);

/** Instant the settings become editable again, or null when they are editable at `now`. */
function lockedUntil(lastUpdated: string | null, now: number): string | null {
  if (!lastUpdated) return null;
  const until = Date.parse(lastUpdated) + LOCK_MS;
  return until > now ? new Date(until).toISOString() : null;
}

export function riskService(ctx: AppContext) {
  const repo = riskRepo(ctx.db);
  const profiles = profitProfilesRepo(ctx.db);

  async function ownAccount(user: AuthUser, accountId: string): Promise<void> {
    await accountsRepo(ctx.db).ownedOr404(user.id, accountId);
  }

  async function view(user: AuthUser, accountId: string): Promise<RiskSettings> {
    const row = await repo.settings(user.id, accountId);
    const f = row ?? { ...DEFAULT_FIELDS, default_tp_profile_id: null, last_updated: null };
    const profile = f.default_tp_profile_id
      ? await profiles.byId(user.id, f.default_tp_profile_id)
      : undefined;
    return {
      account: accountId,
      max_daily_loss: f.max_daily_loss,
      risk_percent: f.risk_percent,
      max_trade_risk: f.max_trade_risk,
      max_open_positions: f.max_open_positions,
      enforce_cooldowns: f.enforce_cooldowns === 1,
      consecutive_loss_limit: f.consecutive_loss_limit,
      cooldown_period: f.cooldown_period,
      max_lot_size: f.max_lot_size,
      max_open_trades_same_symbol: f.max_open_trades_same_symbol,
      last_updated: f.last_updated,
      locked_until: lockedUntil(f.last_updated, Date.now()),
      default_tp_profile_id: profile ? profile.id : null,
      default_tp_profile: profile ? toProfitProfile(profile) : null,
    };
  }

  /** Creates the account's row on its first change; a concurrent first change makes the insert fail, then the caller updates. */
  async function insertRow(
    user: AuthUser,
    accountId: string,
    row: Partial<RiskSettingsTable>,
  ): Promise<boolean> {
    const now = nowIso();
    try {
      await repo.insert({
        ...DEFAULT_FIELDS,
        default_tp_profile_id: null,
        last_updated: null,
        ...row,
        account_id: accountId,
        user_id: user.id,
        created_at: now,
        updated_at: now,
      });
      return true;
    } catch (e) {
      if (isUniqueViolation(e)) return false;
      throw e;
    }
  }

  return {
    async get(user: AuthUser, accountId: string): Promise<RiskSettings> {
      await ownAccount(user, accountId);
      return view(user, accountId);
    },

    /** Replaces the rule fields; refused with 409 while the last change is less than 7 days old. */
    async put(user: AuthUser, accountId: string, body: RiskSettingsUpdate): Promise<RiskSettings> {
      await ownAccount(user, accountId);
      const nowMs = Date.now();
      const now = new Date(nowMs).toISOString();
      const fields = ruleFields(body);
      const existing = await repo.settings(user.id, accountId);
      const created = !existing && (await insertRow(user, accountId, { ...fields, last_updated: now }));
      if (!created) {
        const unlockedBefore = new Date(nowMs - LOCK_MS).toISOString();
        const ok = await repo.updateRulesIfUnlocked(user.id, accountId, fields, now, unlockedBefore);
        if (!ok) {
          const current = await repo.settings(user.id, accountId);
          const until =
            lockedUntil(current?.last_updated ?? now, nowMs) ?? new Date(nowMs + LOCK_MS).toISOString();
          throw conflict(RISK_SETTINGS_MESSAGES.locked(until));
        }
      }
      return view(user, accountId);
    },

    /** Sets (or with null clears) the account's default TP profile; not a rule change, so no lock. */
    async patch(user: AuthUser, accountId: string, body: RiskSettingsPatch): Promise<RiskSettings> {
      await ownAccount(user, accountId);
      const profileId = body.default_tp_profile_id;
      if (profileId !== null && !(await profiles.byId(user.id, profileId))) {
        throw notFound(RISK_SETTINGS_MESSAGES.profileNotFound);
      }
      const existing = await repo.settings(user.id, accountId);
      if (existing || !(await insertRow(user, accountId, { default_tp_profile_id: profileId }))) {
        await repo.setDefaultProfile(user.id, accountId, profileId, nowIso());
      }
      return view(user, accountId);
    },
  };
}
