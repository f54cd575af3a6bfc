import { useQuery } from '@tanstack/react-query';
import {
  reportBreakdowns,
  reportExcursions,
  reportSummary,
  type ReportBreakdowns,
  type ReportExcursions,
  type ReportDimension,
  type ReportSummary,
} from '@tradedesk/contract';
import { api } from '../../app/api';
import { useZoneParam, type ZoneParam } from '../settings/userSettings.api';

export interface ReportFilters {
  /** Empty for all accounts. */
  account: string;
  /** YYYY-MM-DD, inclusive; empty for no bound. */
  from: string;
  to: string;
  instrument: string;
  tag: string;
}

/**
 * The query of a report. Days, weekdays and hours are read in the trader's zone: the saved one (the
 * server resolves it when no `tz` is sent), else the browser's (`useZoneParam`).
 */
export function reportQuery(f: ReportFilters, zone: ZoneParam, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  const set = (k: string, v: string) => v.trim() && q.set(k, v.trim());
  set('account', f.account);
  set('from', f.from);
  set('to', f.to);
  set('instrument', f.instrument);
  set('tag', f.tag);
  if (zone.tz) q.set('tz', zone.tz);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return `?${q}`;
}

export function useReportSummary(f: ReportFilters) {
  const zone = useZoneParam();
  return useQuery<ReportSummary>({
    queryKey: ['reports', 'summary', f, zone.key],
    queryFn: () => api.get(`/reports/summary/${reportQuery(f, zone)}`, { schema: reportSummary }),
    enabled: zone.ready,
  });
}

export function useReportBreakdowns(f: ReportFilters, by: readonly ReportDimension[]) {
  const zone = useZoneParam();
  return useQuery<ReportBreakdowns>({
    queryKey: ['reports', 'breakdowns', f, by, zone.key],
    queryFn: () =>
      api.get(`/reports/breakdowns/${reportQuery(f, zone, { by: by.join(',') })}`, {
        schema: reportBreakdowns,
      }),
    enabled: zone.ready,
  });
}

/** Points the MFE scatter draws at most (the most recently closed trades). */
export const SCATTER_POINTS = 2000;

export function useReportExcursions(f: ReportFilters) {
  const zone = useZoneParam();
  return useQuery<ReportExcursions>({
    queryKey: ['reports', 'excursions', f, zone.key],
    queryFn: () =>
      api.get(`/reports/excursions/${reportQuery(f, zone, { limit: String(SCATTER_POINTS) })}`, {
        schema: reportExcursions,
      }),
    enabled: zone.ready,
  });
}
