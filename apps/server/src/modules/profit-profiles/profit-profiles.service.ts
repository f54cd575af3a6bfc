import {
  PROFIT_PROFILE_MESSAGES,
  type PartialTargetBody,
  type ProfitProfile,
  type ProfitProfileCreate,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import type { ProfitProfilesTable } from '../../db/schema';
import { isUniqueViolation } from '../../db/unique-violation';
import { badRequest, conflict } from '../../lib/http-error';
import { newId, nowIso } from '../../lib/ids';
import type { AuthUser } from '../../request-context';
import { profitProfilesRepo } from './profit-profiles.repo';

/** 33.3 + 33.3 + 33.4 is 100: float noise from typed percentages is not a wrong sum. */
const SUM_TOLERANCE = 1e-6;

export const nameKey = (name: string) => name.trim().toLowerCase();
export function toProfitProfile(r: ProfitProfilesTable): ProfitProfile {
  return {
    id: r.id,
    name: r.name,
    partial_targets: JSON.parse(r.partial_targets) as PartialTargetBody[],
    is_default: r.is_default === 1,
    created_at: r.created_at,
  };
}

/** One clear detail for the first problem of a target list, or null when it is usable. */
export function checkPartialTargets(targets: PartialTargetBody[] | null | undefined): string | null {
  if (!targets || targets.length === 0) return PROFIT_PROFILE_MESSAGES.targetsRequired;
  const positive = (x: number) => Number.isFinite(x) && x > 0;
  if (!targets.every((t) => positive(t.size_pct))) return PROFIT_PROFILE_MESSAGES.sizePositive;
  if (!targets.every((t) => positive(t.r_multiple))) return PROFIT_PROFILE_MESSAGES.rPositive;
  const sum = targets.reduce((a, t) => a + t.size_pct, 0);
  if (Math.abs(sum - 100) > SUM_TOLERANCE) return PROFIT_PROFILE_MESSAGES.sizesSum(sum);
  return null;
}

export function profitProfilesService(ctx: AppContext) {
  const repo = profitProfilesRepo(ctx.db);
  return {
    async list(user: AuthUser): Promise<ProfitProfile[]> {
      return (await repo.listByUser(user.id)).map(toProfitProfile);
    },

    async create(user: AuthUser, body: ProfitProfileCreate): Promise<ProfitProfile> {
      const name = (body.name ?? '').trim();
      if (!name) throw badRequest(PROFIT_PROFILE_MESSAGES.nameRequired);
      const problem = checkPartialTargets(body.partial_targets);
      if (problem) throw badRequest(problem);
      const key = nameKey(name);
      if (await repo.byNameKey(user.id, key)) throw conflict(PROFIT_PROFILE_MESSAGES.duplicateName);
      const now = nowIso();
      const row: ProfitProfilesTable = {
        id: newId(),
        user_id: user.id,
        name,
        name_key: key,
        partial_targets: JSON.stringify(
          body.partial_targets!.map((t) => ({ r_multiple: t.r_multiple, size_pct: t.size_pct })),
        ),
        is_default: body.is_default === true ? 1 : 0,
        created_at: now,
        updated_at: now,
      };
      try {
        await repo.insert(row);
      } catch (e) {
        // Two saves racing: the same name, or two new defaults at once (the one-default index).
        if (isUniqueViolation(e)) {
          if (await repo.byNameKey(user.id, key)) throw conflict(PROFIT_PROFILE_MESSAGES.duplicateName);
          await repo.insert(row);
        } else throw e;
      }
      return toProfitProfile(row);
    },
  };
}
