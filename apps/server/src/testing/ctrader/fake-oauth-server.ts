import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for cTrader's OAuth endpoints, for the test suite:
 * - `GET /apps/auth?client_id&redirect_uri&scope&state` approves at once and redirects to
 *   `redirect_uri?code=…&state=…` (the consent page of id.ctrader.com, minus the human);
 * - `GET|POST /apps/token` with grant_type=authorization_code (code, redirect_uri, client_id,
 *   client_secret) or grant_type=refresh_token (refresh_token, client_id, client_secret) answers
 *   `{accessToken, tokenType, expiresIn, refreshToken, errorCode, description}` like the real one.
 * A refresh invalidates the previous access token, as cTrader does.
 */
export interface FakeOAuthOptions {
  clientId: string;
  clientSecret: string;
  /** The cTrader accounts (ctidTraderAccountId) every granted token gives access to. */
  grantedAccounts: number[];
  /** Lifetime of access tokens in seconds (cTrader: 2,628,000). */
  expiresIn?: number;
}

interface AccessGrant {
  accounts: number[];
  expiresAt: number;
}

export class FakeOAuthServer {
  private server: Server | undefined;
  private readonly codes = new Map<string, { redirectUri: string; expiresAt: number }>();
  private readonly access = new Map<string, AccessGrant>();
  private readonly refresh = new Map<string, { accounts: number[]; access: string }>();
  /** Every token request, in order (grant type and whether it succeeded). */
  readonly requests: Array<{ grant_type: string; ok: boolean }> = [];
  /** Every token pair handed out, newest last (tests check none is stored in clear). */
  readonly issued: Array<{ accessToken: string; refreshToken: string }> = [];
  expiresIn: number;
  /** When set, the token endpoint answers 503 (the service is down). */
  down = false;

  constructor(private readonly opts: FakeOAuthOptions) {
    this.expiresIn = opts.expiresIn ?? 2_628_000;
  }

  get baseUrl(): string {
    const addr = this.server?.address() as AddressInfo | null;
    if (!addr) throw new Error('fake OAuth server not started');
    return `http://127.0.0.1:${addr.port}`;
  }
  get authUrl(): string {
    return `${this.baseUrl}/apps/auth`;
  }
  get tokenUrl(): string {
    return `${this.baseUrl}/apps/token`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  /** The accounts a still valid access token opens, or null. Used by the fake Open API server. */
  accountsFor(token: string): number[] | null {
    const g = this.access.get(token);
    if (!g || g.expiresAt <= Date.now()) return null;
    return g.accounts;
  }

  /** Issues an authorisation code as the consent page would. */
  issueCode(redirectUri: string): string {
    const code = randomBytes(12).toString('hex');
    this.codes.set(code, { redirectUri, expiresAt: Date.now() + 60_000 });
    return code;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const params = new URLSearchParams(url.search);
    if (req.method === 'POST') {
      const body = await new Promise<string>((resolve) => {
        let b = '';
        req.on('data', (c: Buffer) => (b += c.toString()));
        req.on('end', () => resolve(b));
      });
      const type = String(req.headers['content-type'] ?? '');
      const extra = type.includes('json')
        ? new URLSearchParams(JSON.parse(body || '{}'))
        : new URLSearchParams(body);
      for (const [k, v] of extra) params.set(k, v);
    }
    if (url.pathname === '/apps/auth') {
      const redirectUri = params.get('redirect_uri') ?? '';
      if (params.get('client_id') !== this.opts.clientId || !redirectUri) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('invalid client');
        return;
      }
      const target = new URL(redirectUri);
      target.searchParams.set('code', this.issueCode(redirectUri));
      const state = params.get('state');
      if (state) target.searchParams.set('state', state);
      res.writeHead(302, { location: target.toString() }).end();
      return;
    }
    if (url.pathname !== '/apps/token') {
      res.writeHead(404).end();
      return;
    }
    if (this.down) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
      return;
    }
    const grant = params.get('grant_type') ?? '';
    const fail = (errorCode: string, description: string) => {
      this.requests.push({ grant_type: grant, ok: false });
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          accessToken: null,
          tokenType: null,
          expiresIn: null,
          refreshToken: null,
          errorCode,
          description,
        }),
      );
    };
    if (
      params.get('client_id') !== this.opts.clientId ||
      params.get('client_secret') !== this.opts.clientSecret
    ) {
      return fail('ACCESS_DENIED', 'Invalid client credentials');
    }
    let accounts: number[];
    if (grant === 'authorization_code') {
      const code = params.get('code') ?? '';
      const c = this.codes.get(code);
      this.codes.delete(code);
      if (!c || c.expiresAt < Date.now())
        return fail('ACCESS_DENIED', 'Authorization code is invalid or expired');
      if (c.redirectUri !== params.get('redirect_uri'))
        return fail('ACCESS_DENIED', 'redirect_uri does not match');
      accounts = this.opts.grantedAccounts;
    } else if (grant === 'refresh_token') {
      const r = this.refresh.get(params.get('refresh_token') ?? '');
      if (!r) return fail('ACCESS_DENIED', 'Refresh token is invalid');
      this.refresh.delete(params.get('refresh_token') ?? '');
      this.access.delete(r.access);
      accounts = r.accounts;
    } else {
      return fail('INVALID_REQUEST', 'Unsupported grant_type');
    }
    const accessToken = `at_${randomBytes(16).toString('hex')}`;
    const refreshToken = `rt_${randomBytes(16).toString('hex')}`;
    this.access.set(accessToken, { accounts, expiresAt: Date.now() + this.expiresIn * 1000 });
    this.refresh.set(refreshToken, { accounts, access: accessToken });
    this.requests.push({ grant_type: grant, ok: true });
    this.issued.push({ accessToken, refreshToken });
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        accessToken,
        tokenType: 'bearer',
        expiresIn: this.expiresIn,
        refreshToken,
        errorCode: null,
        description: null,
      }),
    );
  }
}
