import { SignJWT, jwtVerify } from 'jose';
import {
  CTRADER_MESSAGES,
  type CTraderAccountChoice,
  type CTraderAccountStatus,
  type CTraderSelectAccount,
} from '@tradedesk/contract';
import { CTraderAdapter, TOKEN_CHECK_MS } from '../../brokers/ctrader/adapter';
import { OpenApiConnection, toBrokerError } from '../../brokers/ctrader/openapi-client';
import { OPEN_API_HOSTS, PT, arr, money, normTrader, num } from '../../brokers/ctrader/protocol';
import { brokerRegistry } from '../../brokers/registry';
import type { BrokerAdapter } from '../../brokers/types';
import type { AppConfig } from '../../config';
import type { AppContext } from '../../context';
import type { TradingAccountsTable } from '../../db/schema';
import { HttpError, badGateway, badRequest, notFound } from '../../lib/http-error';
import { nowIso } from '../../lib/ids';
import type { AuthUser } from '../auth/tokens';

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
const STATE_TTL_SECONDS = 10 * 60;
const STATE_AUDIENCE = 'ctrader-oauth';

const notConfigured = () => new HttpError(503, CTRADER_MESSAGES.notConfigured);

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

const singleFlight = new WeakMap<AppContext, Map<string, Promise<string>>>();

export function ctraderService(ctx: AppContext) {
  const cfg = () => ctx.config.ctrader;
  const key = new TextEncoder().encode(ctx.config.jwtSecret);

  const rowById = (id: string) =>
    ctx.db.selectFrom('trading_accounts').selectAll().where('id', '=', id).executeTakeFirst();
  const ownedRow = (userId: string, id: string) =>
    ctx.db
      .selectFrom('trading_accounts')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();

  async function ownedCTrader(userId: string, id: string): Promise<TradingAccountsTable> {
    const row = await ownedRow(userId, id);
    if (!row) throw notFound();
    if (row.platform !== 'cTrader') throw badRequest(CTRADER_MESSAGES.notCTrader);
    return row;
  }

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
      throw badGateway(`cTrader token service is unavailable: ${e instanceof Error ? e.message : String(e)}`);
    }
    const accessToken = body.accessToken ?? body.access_token;
    const refreshToken = body.refreshToken ?? body.refresh_token;
    const expiresIn = num(body.expiresIn ?? body.expires_in);
    if (typeof accessToken !== 'string' || !accessToken || typeof refreshToken !== 'string') {
      const why = [body.errorCode ?? body.error, body.description ?? body.error_description]
        .filter(Boolean)
        .join(': ');
      throw badGateway(`cTrader refused the token request${why ? `: ${String(why)}` : '.'}`);
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
    let flights = singleFlight.get(ctx);
    if (!flights) singleFlight.set(ctx, (flights = new Map()));
    const running = flights.get(accountId);
    if (running) return running;
    const p = (async () => {
      const row = await rowById(accountId);
      if (!row) throw badGateway(CTRADER_MESSAGES.notBound);
      const { ct } = readMeta(row);
      if (!ct.access_token_enc || !ct.refresh_token_enc) throw badGateway(CTRADER_MESSAGES.notBound);
      const expiresAt = Date.parse(ct.expires_at ?? '') || 0;
      if (expiresAt - Date.now() > REFRESH_MARGIN_MS) return ctx.secrets.open(ct.access_token_enc);
      if (!ctraderConfigured(ctx.config)) throw notConfigured();
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

  /** Asks the Open API which trading accounts the token opens, with balance and currency where it answers. */
  async function listTraderAccounts(token: string): Promise<CTraderAccountChoice[]> {
    const conns = new Map<string, OpenApiConnection>();
    const open = async (url: string) => {
      let c = conns.get(url);
      if (c?.isOpen) return c;
      c = new OpenApiConnection(url, { requestTimeoutMs: 10_000 });
      await c.open();
      conns.set(url, c);
      await c.request(
        PT.APPLICATION_AUTH_REQ,
        { clientId: cfg().clientId, clientSecret: cfg().clientSecret },
        PT.APPLICATION_AUTH_RES,
      );
      return c;
    };
    try {
      const main = await open(openApiUrl(ctx.config));
      const list = await main.request(
        PT.GET_ACCOUNTS_BY_ACCESS_TOKEN_REQ,
        { accessToken: token },
        PT.GET_ACCOUNTS_BY_ACCESS_TOKEN_RES,
      );
      const out: CTraderAccountChoice[] = [];
      for (const a of arr(list.payload?.ctidTraderAccount).slice(0, 50)) {
        const accountId = num(a.ctidTraderAccountId) ?? 0;
        const isLive = a.isLive === true;
        const choice: CTraderAccountChoice = {
          accountId,
          accountNumber: num(a.traderLogin) ?? null,
          brokerName: typeof a.brokerTitleShort === 'string' ? a.brokerTitleShort : '',
          currency: '',
          balance: null,
          isLive,
        };
        try {
          // Balance and currency need an account session (ProtoOATraderReq + the deposit asset's name).
          const c = await open(openApiUrl(ctx.config, isLive));
          await c.request(
            PT.ACCOUNT_AUTH_REQ,
            { ctidTraderAccountId: accountId, accessToken: token },
            PT.ACCOUNT_AUTH_RES,
          );
          const [trader, assets] = await Promise.all([
            c.request(PT.TRADER_REQ, { ctidTraderAccountId: accountId }, PT.TRADER_RES),
            c.request(PT.ASSET_LIST_REQ, { ctidTraderAccountId: accountId }, PT.ASSET_LIST_RES),
          ]);
          const t = normTrader((trader.payload?.trader ?? {}) as Record<string, unknown>);
          const asset = arr(assets.payload?.asset).find((x) => num(x.assetId) === t.depositAssetId);
          choice.balance = money(t.balance, t.moneyDigits);
          choice.currency = String(asset?.displayName ?? asset?.name ?? '');
          if (t.brokerName) choice.brokerName = t.brokerName;
          if (choice.accountNumber === null && t.traderLogin !== undefined)
            choice.accountNumber = t.traderLogin;
        } catch (e) {
          ctx.log.warn(
            { err: e instanceof Error ? e.message : String(e), ctid: accountId },
            'cTrader trader details unavailable',
          );
        }
        out.push(choice);
      }
      return out;
    } catch (e) {
      const be = toBrokerError(e);
      throw badGateway(be.message);
    } finally {
      for (const c of conns.values()) c.close();
    }
  }

  return {
    accessToken,

    async redirectUrl(user: AuthUser, accountId: string): Promise<string> {
      const row = await ownedCTrader(user.id, accountId);
      if (!ctraderConfigured(ctx.config)) throw notConfigured();
      const state = await new SignJWT({ typ: 'ctrader_state', acc: row.id })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user.id)
        .setAudience(STATE_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + STATE_TTL_SECONDS)
        .sign(key);
      const url = new URL(cfg().authUrl);
      url.searchParams.set('client_id', cfg().clientId);
      url.searchParams.set('redirect_uri', cfg().redirectUri);
      url.searchParams.set('scope', 'trading');
      url.searchParams.set('state', state);
      return url.toString();
    },

    /** The OAuth callback: returns where the browser goes next (the selection page with the accounts). */
    async callback(q: {
      code?: string;
      state?: string;
      error?: string;
      error_description?: string;
    }): Promise<string> {
      let userId: string;
      let accountId: string;
      try {
        const { payload } = await jwtVerify(q.state ?? '', key, {
          algorithms: ['HS256'],
          audience: STATE_AUDIENCE,
        });
        if (
          payload.typ !== 'ctrader_state' ||
          typeof payload.sub !== 'string' ||
          typeof payload.acc !== 'string'
        )
          throw new Error('bad state');
        userId = payload.sub;
        accountId = payload.acc;
      } catch {
        throw badRequest(CTRADER_MESSAGES.badState);
      }
      if (q.error) throw badRequest(`cTrader authorisation was refused: ${q.error_description || q.error}`);
      if (!q.code) throw badRequest(CTRADER_MESSAGES.missingCode);
      const row = await ownedCTrader(userId, accountId);
      if (!ctraderConfigured(ctx.config)) throw notConfigured();
      const tokens = await tokenRequest({
        grant_type: 'authorization_code',
        code: q.code,
        redirect_uri: cfg().redirectUri,
      });
      const { ct } = readMeta(row);
      const next: CTraderMeta = { ...ct, ...sealTokens(tokens), authorised_at: nowIso() };
      await writeMeta(row, next);
      const accounts = await listTraderAccounts(tokens.accessToken);
      const stored = (await rowById(row.id)) ?? row;
      const now = readMeta(stored).ct;
      // A binding the new grant no longer covers is dropped.
      const keep = accounts.some((a) => a.accountId === now.ctid_trader_account_id);
      await writeMeta(stored, {
        ...now,
        accounts,
        ...(keep ? {} : { ctid_trader_account_id: undefined, is_live: undefined }),
      });
      // A new grant replaces the session of the old token.
      await brokerRegistry(ctx).evict(row.id);
      return `/select-ctrader-account?accounts=${encodeURIComponent(JSON.stringify(accounts))}`;
    },

    async selectAccount(user: AuthUser, body: CTraderSelectAccount): Promise<{ message: string }> {
      let row: TradingAccountsTable | undefined;
      if (body.account_id) row = await ownedCTrader(user.id, body.account_id);
      else {
        const rows = await ctx.db
          .selectFrom('trading_accounts')
          .selectAll()
          .where('user_id', '=', user.id)
          .where('platform', '=', 'cTrader')
          .execute();
        row = rows
          .map((r) => ({ r, at: readMeta(r).ct.authorised_at ?? '' }))
          .filter((x) => x.at)
          .sort((a, b) => b.at.localeCompare(a.at))[0]?.r;
      }
      if (!row) throw badRequest(CTRADER_MESSAGES.noAuthorisedAccount);
      const { ct } = readMeta(row);
      if (!ct.access_token_enc) throw badRequest(CTRADER_MESSAGES.noAuthorisedAccount);
      const ctid = Number(body.accountId);
      const choice = (ct.accounts ?? []).find((a) => a.accountId === ctid);
      if (!choice) throw badRequest(CTRADER_MESSAGES.notGranted);
      await writeMeta(
        row,
        { ...ct, ctid_trader_account_id: ctid, is_live: choice.isLive },
        {
          account_number: choice.accountNumber !== null ? String(choice.accountNumber) : String(ctid),
          ...(choice.brokerName ? { broker: choice.brokerName } : {}),
          ...(choice.currency ? { currency: choice.currency } : {}),
        },
      );
      await brokerRegistry(ctx).evict(row.id);
      return { message: CTRADER_MESSAGES.selected };
    },

    async status(user: AuthUser, id: string): Promise<CTraderAccountStatus> {
      const row = await ownedCTrader(user.id, id);
      const { ct } = readMeta(row);
      if (!ct.ctid_trader_account_id) throw badRequest(CTRADER_MESSAGES.notBound);
      const registry = brokerRegistry(ctx);
      const info = await registry.use(row, (a) => a.accountInfo());
      return {
        id: row.id,
        ctid_trader_account_id: ct.ctid_trader_account_id,
        is_live: ct.is_live === true,
        connection_state: registry.state(row.id),
        ...info,
      };
    },
  };
}

/** The registry's factory for cTrader accounts (brokers/registry.ts). */
export function createCTraderBroker(ctx: AppContext, account: TradingAccountsTable): BrokerAdapter {
  if (!ctraderConfigured(ctx.config)) throw notConfigured();
  const { ct } = readMeta(account);
  if (!ct.ctid_trader_account_id || !ct.access_token_enc) throw badGateway(CTRADER_MESSAGES.notBound);
  const service = ctraderService(ctx);
  return new CTraderAdapter({
    url: openApiUrl(ctx.config, ct.is_live),
    clientId: ctx.config.ctrader.clientId,
    clientSecret: ctx.config.ctrader.clientSecret,
    ctidTraderAccountId: ct.ctid_trader_account_id,
    accessToken: () => service.accessToken(account.id),
    log: ctx.log,
  });
}
