import { useQuery } from '@tanstack/react-query';
import {
  profitProfile,
  riskSettings,
  type ProfitProfile,
  type RiskSettings,
  type RiskSettingsUpdate,
} from '@tradedesk/contract';
import { z } from 'zod';
import { api } from '../../app/api';

export const riskSettingsKey = (accountId: string) => ['risk-settings', accountId] as const;
export const PROFIT_PROFILES_KEY = ['profit-profiles'] as const;

export const fetchRiskSettings = (accountId: string) =>
  api.get<RiskSettings>(`/risk/settings/${encodeURIComponent(accountId)}/`, { schema: riskSettings });

export const putRiskSettings = (accountId: string, body: RiskSettingsUpdate) =>
  api.put<RiskSettings>(`/risk/settings/${encodeURIComponent(accountId)}/`, body, { schema: riskSettings });

export const patchDefaultProfile = (accountId: string, profileId: string | null) =>
  api.patch<RiskSettings>(
    `/risk/settings/${encodeURIComponent(accountId)}/`,
    { default_tp_profile_id: profileId },
    { schema: riskSettings },
  );

/** The account's risk settings (the server answers defaults for an account never configured). */
export function useRiskSettings(accountId: string | null | undefined) {
  return useQuery({
    queryKey: riskSettingsKey(accountId ?? ''),
    queryFn: () => fetchRiskSettings(accountId!),
    enabled: !!accountId,
  });
}

export function useProfitProfiles() {
  return useQuery<ProfitProfile[]>({
    queryKey: PROFIT_PROFILES_KEY,
    queryFn: () => api.get('/accounts/profit-profiles/', { schema: z.array(profitProfile) }),
    staleTime: 30_000,
  });
}
