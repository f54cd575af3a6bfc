import type { z } from 'zod';
import { tokenResponse } from '@tradedesk/contract';
import { ApiError } from './errors';
import { session } from './session';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

let onUnauthorized: () => void = () => {
  window.location.assign('/login');
};
/** The router installs a navigation that does not reload the page. */
export function setUnauthorizedHandler(fn: () => void): void {
  onUnauthorized = fn;
}

async function parseBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export interface RequestOptions<T> {
  body?: unknown;
  /**
   * Every call names the schema of its answer (from the contract): the answer is validated, never
   * cast. A call that accepts any answer on purpose says so with `z.unknown()`.
   */
  schema: z.ZodType<T>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

let refreshing: Promise<boolean> | null = null;

/**
 * Access tokens are short-lived: when one expires, the stored refresh token buys a new pair (the server
 * rotates it), once for all the calls that failed together. False when there is none or it is refused.
 */
function refreshSession(): Promise<boolean> {
  const refresh = session.refreshToken();
  if (!refresh) return Promise.resolve(false);
  refreshing ??= fetch('/api/token/refresh/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refresh }),
  })
    .then(async (res) => {
      if (!res.ok) return false;
      const pair = tokenResponse.safeParse(await res.json());
      if (pair.success) session.store(pair.data.access, pair.data.refresh);
      return pair.success;
    })
    .catch(() => false)
    .finally(() => (refreshing = null));
  return refreshing;
}

/**
 * The one place that talks to the API: adds the bearer token from storage; a 401 first tries to
 * refresh the session once, and otherwise clears it and sends the user to /login (spec section 4).
 * File downloads use it directly.
 */
export async function authorizedFetch(
  method: Method,
  path: string,
  init: { headers?: Record<string, string>; body?: BodyInit; signal?: AbortSignal } = {},
): Promise<Response> {
  const send = () => {
    const headers = { ...(init.headers ?? {}) };
    const token = session.token();
    if (token) headers.authorization = `Bearer ${token}`;
    return fetch(`/api${path}`, { method, headers, body: init.body, signal: init.signal });
  };
  let res = await send();
  if (res.status === 401 && !path.startsWith('/token/')) {
    if (await refreshSession()) res = await send();
    if (res.status === 401) {
      session.clear();
      onUnauthorized();
    }
  }
  return res;
}

/**
 * Every JSON call of the app goes through here: JSON in and out over `authorizedFetch`,
 * and any 401 clears the session and sends the user to /login (spec section 4).
 */
export async function request<T>(method: Method, path: string, opts: RequestOptions<T>): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...(opts.headers ?? {}) };
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await authorizedFetch(method, path, { headers, body, signal: opts.signal });
  const data = await parseBody(res);
  if (!res.ok) throw new ApiError(res.status, data, `${method} ${path} failed with ${res.status}`);
  const parsed = opts.schema.safeParse(data);
  if (!parsed.success) throw new ApiError(res.status, null, `Unexpected response from ${path}`);
  return parsed.data;
}

type Options<T> = Omit<RequestOptions<T>, 'body'>;

export const api = {
  get: <T>(path: string, opts: Options<T>) => request<T>('GET', path, opts),
  post: <T>(path: string, body: unknown, opts: Options<T>) => request<T>('POST', path, { ...opts, body }),
  put: <T>(path: string, body: unknown, opts: Options<T>) => request<T>('PUT', path, { ...opts, body }),
  patch: <T>(path: string, body: unknown, opts: Options<T>) => request<T>('PATCH', path, { ...opts, body }),
  delete: <T>(path: string, opts: Options<T>) => request<T>('DELETE', path, opts),
};
