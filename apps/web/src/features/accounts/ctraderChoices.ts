/** One trader account offered by cTrader after the OAuth consent. */
export interface CTraderChoice {
  accountId: number | string;
  accountNumber: string | null;
  broker: string;
  currency: string;
  balance: number | null;
  isLive: boolean | null;
}

const str = (v: unknown): string | null =>
  typeof v === 'string' && v.trim()
    ? v.trim()
    : typeof v === 'number' && Number.isFinite(v)
      ? String(v)
      : null;

function toChoice(x: unknown): CTraderChoice | null {
  if (!x || typeof x !== 'object' || Array.isArray(x)) return null;
  const o = x as Record<string, unknown>;
  const id = o.accountId;
  const accountId =
    typeof id === 'number' && Number.isInteger(id) && id > 0
      ? id
      : typeof id === 'string' && /^\d{1,18}$/.test(id.trim())
        ? id.trim()
        : null;
  if (accountId === null) return null;
  // A balance may arrive as a decimal string (as some cTrader tools serialise money); anything else is unknown.
  const balance =
    typeof o.balance === 'number' && Number.isFinite(o.balance)
      ? o.balance
      : typeof o.balance === 'string' && /^-?\d+(\.\d+)?$/.test(o.balance.trim())
        ? Number(o.balance.trim())
        : null;
  return {
    accountId,
    accountNumber: str(o.accountNumber),
    broker: str(o.broker) ?? str(o.brokerName) ?? '',
    currency: str(o.currency) ?? '',
    balance,
    isLive: typeof o.isLive === 'boolean' ? o.isLive : null,
  };
}

/**
 * The `accounts` query parameter: a JSON list of {accountId, accountNumber, broker or brokerName,
 * currency, balance}. Anything malformed (not JSON, not a list, entries without an account id) is
 * left out, so the page shows its empty state instead of failing.
 */
export function parseCTraderAccounts(raw: string | null | undefined): CTraderChoice[] {
  if (!raw) return [];
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(data)) return [];
  return data.map(toChoice).filter((c): c is CTraderChoice => c !== null);
}
