import { BrokerError } from '../types';
import { toBrokerError } from './mt5-mapping';
import type { Mt5State } from './mt5-state';
import { BRIDGE_TOKEN_HEADER, type BridgeErrorBody, type LoginResponse } from './protocol';

/** Requests to the bridge and the login session they run under. */

export function login(st: Mt5State): Promise<void> {
  st.loginInFlight ??= (async () => {
    const { account_number, password, server } = st.opts.credentials;
    const login = Number(account_number);
    if (!Number.isSafeInteger(login) || login <= 0)
      throw new BrokerError('MT5 login failed: the account number must be a number.', 'auth');
    const res = await http<LoginResponse>(
      st,
      'POST',
      '/login',
      { login, password, server },
      { session: null, retryLogin: false },
    );
    st.session = res.session;
    st.capabilities.hedging = res.account.margin_mode === 'hedging';
    st.log.info({ login: st.who.login, server: st.who.server }, 'mt5 bridge login succeeded');
  })().finally(() => {
    st.loginInFlight = null;
  });
  return st.loginInFlight;
}

export async function http<T>(
  st: Mt5State,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  opt: { session?: string | null; retryLogin?: boolean; timeoutMs?: number } = {},
): Promise<T> {
  const session = opt.session === undefined ? await ensureSession(st) : opt.session;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (session) headers.authorization = `Bearer ${session}`;
  if (st.opts.bridgeToken) headers[BRIDGE_TOKEN_HEADER] = st.opts.bridgeToken;
  let res: Response;
  let payload: unknown;
  try {
    res = await fetch(`${st.base}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(opt.timeoutMs ?? st.timeoutMs),
    });
    const text = await res.text();
    payload = text ? JSON.parse(text) : null;
  } catch (e) {
    const timedOut = (e as Error)?.name === 'TimeoutError';
    // Only the path: a request body may hold the password.
    st.log.debug(
      { login: st.who.login, method, path: path.split('?')[0], timedOut },
      'mt5 bridge request failed',
    );
    throw new BrokerError(
      timedOut
        ? `The MT5 bridge did not answer within ${Number(((opt.timeoutMs ?? st.timeoutMs) / 1000).toFixed(1))} s.`
        : 'The MT5 bridge is unreachable.',
      'unavailable',
    );
  }
  if (res.ok) {
    st.onRequestOk();
    return payload as T;
  }
  const errBody =
    payload && typeof payload === 'object' && 'error' in payload ? (payload as BridgeErrorBody) : null;
  if (errBody?.error.code === 'SESSION_EXPIRED' && opt.retryLogin !== false) {
    st.session = null;
    await login(st);
    return http<T>(st, method, path, body, { ...opt, retryLogin: false });
  }
  throw toBrokerError(res.status, errBody);
}

async function ensureSession(st: Mt5State): Promise<string> {
  if (!st.session) {
    if (st.stopped && st.state !== 'reconnecting') {
      throw new BrokerError('Not connected to MT5: connect the account first.', 'unavailable');
    }
    await login(st);
  }
  return st.session as string;
}
