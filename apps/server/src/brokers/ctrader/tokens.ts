import { CTRADER_MESSAGES, type CTraderAccountChoice } from '@tradedesk/contract';
import type { AppConfig } from '../../config';
import type { AppContext } from '../../context';
import type { TradingAccountsTable } from '../../db/schema';
import { nowIso } from '../../lib/ids';
import { perApp } from '../../lib/per-app';
import { BrokerError } from '../types';
import { TOKEN_CHECK_MS } from './adapter';
import { OPEN_API_HOSTS, num } from './protocol';

/** What we keep in `trading_accounts.meta.ctrader`; tokens are sealed with ctx.secrets. */
export interface CTraderMeta {
  access_token_enc?: string;
  refresh_token_enc?: string;
  /** When the access token expires (ISO 8601). */
  expires_at?: string;
  /** When the trader last granted access through the OAuth flow. */
  authorised_at?: string;
  /** The trader's accounts the grant covers, as offered on the selection page. */
  accounts?: CTraderAccountChoice[];
  /** The chosen cTrader account. */
  ctid_trader_account_id?: number;
  is_live?: boolean;
}

/**
 * Refresh the access token when less than this remains. Longer than a connected session's check
 * interval (TOKEN_CHECK_MS), so a token is always renewed before it expires, never after.
 */
export const REFRESH_MARGIN_MS = 4 * TOKEN_CHECK_MS;
export function ctraderConfigured(config: AppConfig): boolean {
  const c = config.ctrader;
  return Boolean(c?.clientId && c.clientSecret && c.redirectUri);
}

/**
 * The Open API host for an account: an explicit ws(s):// CTRADER_HOST is used for everything;
 * otherwise live accounts go to the live host and the rest to demo (CTRADER_HOST then only
 * chooses where the account list is asked for).
 */
export function openApiUrl(config: AppConfig, isLive?: boolean): string {
  const host = config.ctrader.host || 'demo';
  if (/^wss?:\/\//i.test(host)) return host;
  if (isLive === undefined) return host === 'live' ? OPEN_API_HOSTS.live : OPEN_API_HOSTS.demo;
  return isLive ? OPEN_API_HOSTS.live : OPEN_API_HOSTS.demo;
}

export function readMeta(row: TradingAccountsTable): { all: Record<string, unknown>; ct: CTraderMeta } {
  let all: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(row.meta || '{}') as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      all = parsed as Record<string, unknown>;
  } catch {
    all = {};
  }
  const ct = (all.ctrader && typeof all.ctrader === 'object' ? all.ctrader : {}) as CTraderMeta;
  return { all, ct };
}

interface TokenSet {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

/**
 * The cTrader OAuth tokens of the app's accounts: kept sealed in the account's meta, refreshed
 * (once at a time per account) before they expire. Used by the adapter factory and the OAuth routes.
 */
export const ctraderTokens = perApp((ctx: AppContext) => {
  const cfg = () => ctx.config.ctrader;
  const rowById = (id: string) =>
    ctx.db.selectFrom('trading_accounts').selectAll().where('id', '=', id).executeTakeFirst();
  const flights = new Map<string, Promise<string>>();

  async function writeMeta(
    row: TradingAccountsTable,
    ct: CTraderMeta,
    extra: Partial<TradingAccountsTable> = {},
  ): Promise<void> {
    const { all } = readMeta(row);
    const meta = JSON.stringify({ ...all, ctrader: ct });
    await ctx.db
      .updateTable('trading_accounts')
      .set({ ...extra, meta, updated_at: nowIso() })
      .where('id', '=', row.id)
      .where('user_id', '=', row.user_id)
      .execute();
  }

  /** The token endpoint: authorization_code or refresh_token grant, answered as cTrader does. */
  async function tokenRequest(params: Record<string, string>): Promise<TokenSet> {
    const url = new URL(cfg().tokenUrl);
    for (const [k, v] of Object.entries({
      ...params,
      client_id: cfg().clientId,
      client_secret: cfg().clientSecret,
    })) {
      url.searchParams.set(k, v);
    }
    let body: Record<string, unknown>;
    try {
      const res = await fetch(url, {
        method: 'GET',
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(15_000),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      body = (await res.json()) as Record<string, unknown>;
    } catch (e) {
      throw new BrokerError(
        `cTrader token service is unavailable: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    const accessToken = body.accessToken ?? body.access_token;
    const refreshToken = body.refreshToken ?? body.refresh_token;
    const expiresIn = num(body.expiresIn ?? body.expires_in);
    if (typeof accessToken !== 'string' || !accessToken || typeof refreshToken !== 'string') {
      const why = [body.errorCode ?? body.error, body.description ?? body.error_description]
        .filter(Boolean)
        .join(': ');
      throw new BrokerError(`cTrader refused the token request${why ? `: ${String(why)}` : '.'}`);
    }
    return { accessToken, refreshToken, expiresIn: expiresIn ?? 2_628_000 };
  }

  const sealTokens = (t: TokenSet): CTraderMeta => ({
    access_token_enc: ctx.secrets.seal(t.accessToken),
    refresh_token_enc: ctx.secrets.seal(t.refreshToken),
    expires_at: new Date(Date.now() + t.expiresIn * 1000).toISOString(),
  });

  /** A valid access token of the account, refreshed first when it expires within REFRESH_MARGIN_MS. */
  async function accessToken(accountId: string): Promise<string> {
    const running = flights.get(accountId);
    if (running) return running;
    const p = (async () => {
      const row = await rowById(accountId);
      if (!row) throw new BrokerError(CTRADER_MESSAGES.notBound);
      const { ct } = readMeta(row);
      if (!ct.access_token_enc || !ct.refresh_token_enc) throw new BrokerError(CTRADER_MESSAGES.notBound);
      const expiresAt = Date.parse(ct.expires_at ?? '') || 0;
      if (expiresAt - Date.now() > REFRESH_MARGIN_MS) return ctx.secrets.open(ct.access_token_enc);
      if (!ctraderConfigured(ctx.config)) throw new BrokerError(CTRADER_MESSAGES.notConfigured);
      const fresh = await tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: ctx.secrets.open(ct.refresh_token_enc),
      });
      await writeMeta(row, { ...ct, ...sealTokens(fresh) });
      ctx.log.info({ account: accountId }, 'cTrader access token refreshed');
      return fresh.accessToken;
    })().finally(() => flights.delete(accountId));
    flights.set(accountId, p);
    return p;
  }

  return { writeMeta, tokenRequest, sealTokens, accessToken };
});
