import { isTimeZone } from '@tradedesk/domain';
import type { UserSettings, UserSettingsUpdate } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { nowIso } from '../../lib/ids';
import type { AuthUser } from '../../request-context';
import { userSettingsRepo } from './user-settings.repo';

/** The signed-in user's own settings (`/api/users/me/settings/`). */
export function userSettingsService(ctx: AppContext) {
  const repo = userSettingsRepo(ctx.db);
  return {
    async get(user: AuthUser): Promise<UserSettings> {
      return { time_zone: await repo.timeZone(user.id) };
    },
    async update(user: AuthUser, body: UserSettingsUpdate): Promise<UserSettings> {
      if (body.time_zone !== undefined) await repo.setTimeZone(user.id, body.time_zone, nowIso());
      return this.get(user);
    },
  };
}

/**
 * The zone a request reads days, weekdays and hours in: the one it names (`tz=`, so the API stays
 * usable on its own), else the trader's saved zone, else UTC. Every route that reads the trader's
 * day resolves it here.
 */
export function timeZoneResolver(ctx: AppContext) {
  const repo = userSettingsRepo(ctx.db);
  return async (userId: string, requested?: string): Promise<string> => {
    if (requested) return requested;
    const saved = await repo.timeZone(userId);
    // A zone saved under an older runtime's list that this one no longer knows reads as UTC, never a 500.
    return saved && isTimeZone(saved) ? saved : 'UTC';
  };
}
