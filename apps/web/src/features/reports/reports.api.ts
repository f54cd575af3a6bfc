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

export interface ReportFilters {
  /** Empty for all accounts. */
  account: string;
  /** YYYY-MM-DD, inclusive; empty for no bound. */
  from: string;
  to: string;
  instrument: string;
  tag: string;
}

/** The browser's zone: days, weekdays and hours read as the trader lives them. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export function reportQuery(f: ReportFilters, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  const set = (k: string, v: string) => v.trim() && q.set(k, v.trim());
  set('account', f.account);
  set('from', f.from);
  set('to', f.to);
  set('instrument', f.instrument);
  set('tag', f.tag);
  q.set('tz', browserTimeZone());
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return `?${q}`;
}

export function useReportSummary(f: ReportFilters) {
  return useQuery<ReportSummary>({
    queryKey: ['reports', 'summary', f],
    queryFn: () => api.get(`/reports/summary/${reportQuery(f)}`, { schema: reportSummary }),
  });
}

export function useReportBreakdowns(f: ReportFilters, by: readonly ReportDimension[]) {
  return useQuery<ReportBreakdowns>({
    queryKey: ['reports', 'breakdowns', f, by],
    queryFn: () =>
      api.get(`/reports/breakdowns/${reportQuery(f, { by: by.join(',') })}`, { schema: reportBreakdowns }),
  });
}

/** Points the MFE scatter draws at most (the most recently closed trades). */
export const SCATTER_POINTS = 2000;

export function useReportExcursions(f: ReportFilters) {
  return useQuery<ReportExcursions>({
    queryKey: ['reports', 'excursions', f],
    queryFn: () =>
      api.get(`/reports/excursions/${reportQuery(f, { limit: String(SCATTER_POINTS) })}`, {
        schema: reportExcursions,
      }),
  });
}
