/** An HTTP failure with the server's parsed body, when there was one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const UNEXPECTED = 'An unexpected error occurred. Please try again.';

/**
 * The server's own words when it gave any (spec section 8): `detail` as a string, a list of strings,
 * or per-field lists, then `error`; otherwise the caller's fallback text.
 */
export function serverMessage(body: unknown): string | undefined {
  if (typeof body === 'string' && body.trim()) return body;
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { detail?: unknown; error?: unknown };
  const d = b.detail;
  if (typeof d === 'string' && d) return d;
  if (Array.isArray(d) && d.length) return d.map(String).join(' ');
  if (d && typeof d === 'object') {
    const parts = Object.entries(d as Record<string, unknown>).map(([field, msgs]) => {
      const text = Array.isArray(msgs) ? msgs.map(String).join(' ') : String(msgs);
      return field === 'non_field_errors' ? text : `${field}: ${text}`;
    });
    if (parts.length) return parts.join('; ');
  }
  if (typeof b.error === 'string' && b.error) return b.error;
  return undefined;
}

export function errorMessage(err: unknown, fallback: string = UNEXPECTED): string {
  if (err instanceof ApiError) return serverMessage(err.body) ?? fallback;
  return fallback;
}
