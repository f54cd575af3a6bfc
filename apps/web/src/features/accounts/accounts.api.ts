import { useQuery } from '@tanstack/react-query';
import {
  accountDetails,
  ctraderMessage,
  ctraderRedirectResponse,
  mt5AccountDetails,
  mt5ConnectResponse,
  tradingAccount,
  type AccountDetails,
  type PlatformName,
  type TradingAccount,
} from '@tradedesk/contract';
import { z } from 'zod';
import { api } from '../../app/api';
import { useSessionToken } from '../../app/useSession';

export const ACCOUNTS_KEY = ['accounts'] as const;
export const accountDetailsKey = (id: string) => ['accounts', 'details', id] as const;

/** The spec's texts for accounts (section 8), word for word. */
export const ACCOUNT_TEXT = {
  fetchFailed: 'Failed to fetch accounts',
  deleteFailed: 'Failed to delete account',
  createFailed: 'Failed to create account.',
  mt5DetailsFailed: 'Failed to retrieve MT5 account details.',
  mt5ConnectFailed: 'Failed to connect to MT5.',
  ctraderUrlFailed: 'Failed to generate cTrader login URL.',
  selected: 'Account selected and stored!',
  noAccounts: 'No accounts found.',
  required: 'This field is required.',
} as const;

export const PLATFORM_LABEL: Record<PlatformName, string> = {
  MT5: 'MT5',
  cTrader: 'cTrader',
  SIM: 'Simulated',
};

export async function fetchAccounts(): Promise<TradingAccount[]> {
  return api.get('/accounts/', { schema: z.array(tradingAccount) });
}

/** The signed-in user's trading accounts (`GET /accounts/`). */
export function useAccounts() {
  const token = useSessionToken();
  return useQuery({ queryKey: ACCOUNTS_KEY, queryFn: fetchAccounts, enabled: !!token });
}

/**
 * Balance, equity and connection state (`GET /accounts/details/{id}`). Only asked for where it is
 * cheap (the simulated broker answers from the app's own database); a real broker is asked on Connect.
 */
export function useAccountDetails(id: string, enabled: boolean) {
  return useQuery<AccountDetails>({
    queryKey: accountDetailsKey(id),
    queryFn: () => api.get(`/accounts/details/${id}`, { schema: accountDetails }),
    enabled,
    retry: false,
    refetchInterval: enabled ? 15_000 : false,
  });
}

export interface AccountCreateInput {
  name: string;
  platform: PlatformName;
  broker?: string;
  account_number?: string;
  password?: string;
  broker_server?: string;
  currency?: string;
  balance?: number;
  leverage?: number;
}

export const createAccount = (body: AccountCreateInput) =>
  api.post('/accounts/create/', body, { schema: tradingAccount });

export interface AccountUpdateInput {
  name: string;
  broker: string;
  username: string;
  /** Blank keeps the stored password. */
  password: string;
}

export const updateAccount = (id: string, body: AccountUpdateInput) =>
  api.put(`/accounts/${id}/`, body, { schema: tradingAccount });

export const deleteAccount = (id: string) => api.delete(`/accounts/delete/${id}/`, { schema: z.null() });

/** MT5 connects with the details stored on the account. */
/** The MT5 details stored on the account (`GET /accounts/{id}/mt5/`; never the password). */
export const fetchMt5Details = (accountId: string) =>
  api.get(`/accounts/${accountId}/mt5/`, { schema: mt5AccountDetails });

export const connectMt5 = (accountId: string) =>
  api.post('/mt5/connect/', { account_id: accountId }, { schema: mt5ConnectResponse });

export const ctraderRedirect = (accountId: string) =>
  api.get(`/ctrader/api/ctrader/redirect/?account_id=${encodeURIComponent(accountId)}`, {
    schema: ctraderRedirectResponse,
  });

export const selectCTraderAccount = (accountId: number | string) =>
  api.post('/ctrader/api/ctrader/select-account/', { accountId }, { schema: ctraderMessage });

/** Money with the account currency, e.g. `10,000.00 USD`. */
export function formatMoney(amount: number, currency: string): string {
  return `${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;
}
