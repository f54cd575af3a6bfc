import { useQueries, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import {
  profitProfile,
  riskSettings,
  scenario,
  tradingAccount,
  type ProfitProfile,
  type RiskSettings,
  type Scenario,
  type ScenarioInputs,
  type TradingAccount,
} from '@tradedesk/contract';
import { api } from '../../app/api';

export const SCENARIOS_KEY = ['win-rate', 'scenarios'] as const;
export const PROFILES_KEY = ['profit-profiles'] as const;
export const ACCOUNTS_KEY = ['accounts'] as const;
export const riskSettingsKey = (accountId: string) => ['risk-settings', accountId] as const;

const scenarios = z.array(scenario);
const profiles = z.array(profitProfile);
const accounts = z.array(tradingAccount);

export function useScenarios() {
  return useQuery({
    queryKey: SCENARIOS_KEY,
    queryFn: () => api.get('/user/scenarios/', { schema: scenarios }),
  });
}

export const saveScenario = (body: { name: string; inputs: ScenarioInputs }) =>
  api.post<Scenario>('/user/scenarios/', body, { schema: scenario });

export function useProfitProfiles() {
  return useQuery({
    queryKey: PROFILES_KEY,
    queryFn: () => api.get('/accounts/profit-profiles/', { schema: profiles }),
  });
}

export const createProfitProfile = (body: {
  name: string;
  partial_targets: Array<{ r_multiple: number; size_pct: number }>;
  is_default: boolean;
}) => api.post<ProfitProfile>('/accounts/profit-profiles/', body, { schema: profitProfile });

export function useAccounts(enabled: boolean) {
  return useQuery<TradingAccount[]>({
    queryKey: ACCOUNTS_KEY,
    queryFn: () => api.get('/accounts/', { schema: accounts }),
    enabled,
  });
}

/** Each account's risk settings, for showing its current default TP profile. */
export function useAccountsRiskSettings(accountIds: string[], enabled: boolean) {
  return useQueries({
    queries: accountIds.map((id) => ({
      queryKey: riskSettingsKey(id),
      queryFn: () => api.get<RiskSettings>(`/risk/settings/${id}/`, { schema: riskSettings }),
      enabled,
    })),
  });
}

export const setDefaultTpProfile = (accountId: string, profileId: string) =>
  api.patch<RiskSettings>(
    `/risk/settings/${accountId}/`,
    { default_tp_profile_id: profileId },
    { schema: riskSettings },
  );
