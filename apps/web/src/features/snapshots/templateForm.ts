import {
  defaultEmaOverride,
  defaultIndicatorSettings,
  type IndicatorSettings,
  type SnapshotConfig,
} from '@tradedesk/contract';

/** The table's Type cell: Global, Private, or Private with a note when the template is someone else's. */
export function templateType(
  config: Pick<SnapshotConfig, 'is_global' | 'user'>,
  userId: string | undefined,
): string {
  if (config.is_global) return 'Global';
  return config.user === userId ? 'Private' : "Private (another user's template)";
}

/** Only the owner edits and deletes; everyone else may only view (spec section 6). */
export const isOwner = (config: Pick<SnapshotConfig, 'user'>, userId: string | undefined) =>
  !!userId && config.user === userId;

/** An emptied number input is sent as null (spec section 5). */
export function numberOrNull(v: string | number | null | undefined): number | null {
  if (v === '' || v === null || v === undefined) return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
}

/** A new EMA period at the end, with its own default override, so periods and overrides stay in step. */
export function addEmaPeriod(s: IndicatorSettings, period: number | null = null): IndicatorSettings {
  const overrides = s.emas.overrides ?? [];
  const i = s.emas.periods.length;
  return {
    ...s,
    emas: {
      ...s.emas,
      periods: [...s.emas.periods, period],
      overrides: [...overrides, defaultEmaOverride(i)],
    },
  };
}

/** Removes the i-th period and its override together. */
export function removeEmaPeriod(s: IndicatorSettings, i: number): IndicatorSettings {
  const overrides = s.emas.overrides ?? [];
  return {
    ...s,
    emas: {
      ...s.emas,
      periods: s.emas.periods.filter((_, k) => k !== i),
      overrides: overrides.filter((_, k) => k !== i),
    },
  };
}

/** Sets one field of one indicator, leaving the rest as they are. */
export function setIndicator<K extends keyof IndicatorSettings>(
  s: IndicatorSettings,
  key: K,
  patch: Partial<IndicatorSettings[K]>,
): IndicatorSettings {
  return { ...s, [key]: { ...s[key], ...patch } };
}

/** Sets one override of one indicator (not the EMAs, whose overrides are a list). */
export function setOverride<K extends Exclude<keyof IndicatorSettings, 'emas'>>(
  s: IndicatorSettings,
  key: K,
  name: keyof IndicatorSettings[K]['overrides'],
  value: unknown,
): IndicatorSettings {
  return { ...s, [key]: { ...s[key], overrides: { ...s[key].overrides, [name]: value } } };
}

export interface TemplateDraft {
  name: string;
  is_global: boolean;
  indicator_settings: IndicatorSettings;
}

export const emptyDraft = (): TemplateDraft => ({
  name: '',
  is_global: false,
  indicator_settings: defaultIndicatorSettings(),
});
