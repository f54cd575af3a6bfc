import type { Db } from '../../db';
import type { RiskSettingsTable } from '../../db/schema';

export type RiskRuleFields = Omit<
  RiskSettingsTable,
  'account_id' | 'user_id' | 'default_tp_profile_id' | 'last_updated' | 'created_at' | 'updated_at'
>;

export function riskRepo(db: Db) {
  return {
    settings: (userId: string, accountId: string) =>
      db
        .selectFrom('risk_settings')
        .selectAll()
        .where('user_id', '=', userId)
        .where('account_id', '=', accountId)
        .executeTakeFirst(),
    insert: (row: RiskSettingsTable) => db.insertInto('risk_settings').values(row).execute(),
    /** Updates the rule fields unless they changed after `unlockedBefore`; false when still locked. */
    updateRulesIfUnlocked: async (
      userId: string,
      accountId: string,
      fields: RiskRuleFields,
      now: string,
      unlockedBefore: string,
    ) => {
      const res = await db
        .updateTable('risk_settings')
        .set({ ...fields, last_updated: now, updated_at: now })
        .where('user_id', '=', userId)
        .where('account_id', '=', accountId)
        .where((eb) => eb.or([eb('last_updated', 'is', null), eb('last_updated', '<=', unlockedBefore)]))
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },
    setDefaultProfile: (userId: string, accountId: string, profileId: string | null, now: string) =>
      db
        .updateTable('risk_settings')
        .set({ default_tp_profile_id: profileId, updated_at: now })
        .where('user_id', '=', userId)
        .where('account_id', '=', accountId)
        .execute(),
  };
}
