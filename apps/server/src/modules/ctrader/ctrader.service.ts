import { SignJWT, jwtVerify } from 'jose';
import {
  CTRADER_MESSAGES,
  type CTraderAccountChoice,
  type CTraderAccountStatus,
  type CTraderSelectAccount,
} from '@tradedesk/contract';
import { OpenApiConnection, toBrokerError } from '../../brokers/ctrader/openapi-client';
import { PT, num } from '../../brokers/ctrader/protocol';
import { arr, money, normTrader } from '../../brokers/ctrader/protocol-normalise';
import { brokerRegistry } from '../../brokers/registry';
import type { AppContext } from '../../context';
import type { TradingAccountsTable } from '../../db/schema';
import { HttpError, badGateway, badRequest } from '../../lib/http-error';
import { nowIso } from '../../lib/ids';
import type { AuthUser } from '../../request-context';
import { accountsRepo } from '../accounts/accounts.repo';
import {
  ctraderConfigured,
  ctraderTokens,
  openApiUrl,
  readMeta,
  type CTraderMeta,
} from '../../brokers/ctrader/tokens';

const STATE_TTL_SECONDS = 10 * 60;
const STATE_AUDIENCE = 'ctrader-oauth';

const notConfigured = () => new HttpError(503, CTRADER_MESSAGES.notConfigured);

export function ctraderService(ctx: AppContext) {
  const cfg = () => ctx.config.ctrader;
  const key = new TextEncoder().encode(ctx.config.jwtSecret);

  const rowById = (id: string) =>
    ctx.db.selectFrom('trading_accounts').selectAll().where('id', '=', id).executeTakeFirst();

  async function ownedCTrader(userId: string, id: string): Promise<TradingAccountsTable> {
    const row = await accountsRepo(ctx.db).ownedOr404(userId, id);
    if (row.platform !== 'cTrader') throw badRequest(CTRADER_MESSAGES.notCTrader);
    return row;
  }

  const { writeMeta, tokenRequest, sealTokens, accessToken } = ctraderTokens(ctx);

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
