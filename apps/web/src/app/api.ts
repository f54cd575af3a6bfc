import type { z } from 'zod';
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
  schema?: z.ZodType<T>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * The one place that talks to the API: adds the bearer token from storage, and any 401 clears the
 * session and sends the user to /login (spec section 4). File downloads use it directly.
 */
export async function authorizedFetch(
  method: Method,
  path: string,
  init: { headers?: Record<string, string>; body?: BodyInit; signal?: AbortSignal } = {},
): Promise<Response> {
  const headers = { ...(init.headers ?? {}) };
  const token = session.token();
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`/api${path}`, { method, headers, body: init.body, signal: init.signal });
  if (res.status === 401 && !path.startsWith('/token/')) {
    session.clear();
    onUnauthorized();
  }
  return res;
}

/**
 * Every JSON call of the app goes through here: JSON in and out over `authorizedFetch`,
 * and any 401 clears the session and sends the user to /login (spec section 4).
 */
export async function request<T = unknown>(
  method: Method,
  path: string,
  opts: RequestOptions<T> = {},
): Promise<T> {
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
  if (opts.schema) {
    const parsed = opts.schema.safeParse(data);
    if (!parsed.success) throw new ApiError(res.status, null, `Unexpected response from ${path}`);
    return parsed.data;
  }
  return data as T;
}

export const api = {
  get: <T = unknown>(path: string, opts?: RequestOptions<T>) => request<T>('GET', path, opts),
  post: <T = unknown>(path: string, body?: unknown, opts?: RequestOptions<T>) =>
    request<T>('POST', path, { ...opts, body }),
  put: <T = unknown>(path: string, body?: unknown, opts?: RequestOptions<T>) =>
    request<T>('PUT', path, { ...opts, body }),
  patch: <T = unknown>(path: string, body?: unknown, opts?: RequestOptions<T>) =>
    request<T>('PATCH', path, { ...opts, body }),
  delete: <T = unknown>(path: string, opts?: RequestOptions<T>) => request<T>('DELETE', path, opts),
};
