import { useQuery } from '@tanstack/react-query';
import { userSettings, type UserSettings, type UserSettingsUpdate } from '@tradedesk/contract';
import { api } from '../../app/api';

export const userSettingsKey = ['users', 'me', 'settings'] as const;

/** The browser's zone: what the reports and the account strip use while the trader saved none. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** `GET /users/me/settings/`; it changes only through this app, which writes the answer of a save into the cache. */
export function useUserSettings() {
  return useQuery<UserSettings>({
    queryKey: userSettingsKey,
    queryFn: () => api.get('/users/me/settings/', { schema: userSettings }),
    staleTime: 10 * 60_000,
  });
}

export const patchUserSettings = (body: UserSettingsUpdate) =>
  api.patch('/users/me/settings/', body, { schema: userSettings });

export interface ZoneParam {
  /** False until the settings are read: a request sent before could use the wrong zone. */
  ready: boolean;
  /**
   * What to send as `tz`: nothing when a zone is saved (the server reads the saved one, so there is
   * one source of truth), the browser's zone when none is (or the settings could not be read).
   */
  tz: string | undefined;
  /** The zone expected in use, for query keys: a saved change asks the figures again. */
  key: string;
}

/** The `tz` a request for the trader's days and hours sends (reports, the account strip). */
export function useZoneParam(): ZoneParam {
  const s = useUserSettings();
  const saved = s.data?.time_zone ?? null;
  if (saved) return { ready: true, tz: undefined, key: saved };
  const browser = browserTimeZone();
  return { ready: !s.isPending, tz: browser, key: `browser:${browser}` };
}
