import { createHash } from 'node:crypto';
import { TRADE_MESSAGES, type TradeExecuteRequest, type TradeExecuteResponse } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { knownErrorToHttp } from '../../lib/error-status';
import { HttpError, unprocessable } from '../../lib/http-error';
import { newId } from '../../lib/ids';
import type { AuthUser } from '../../request-context';
import { executeTrade } from './execution';
import { tradesRepo } from './trades.repo';

/** JSON with its keys sorted at every level, so equal bodies hash equally whatever their key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

export const bodyHash = (body: unknown) => createHash('sha256').update(canonical(body)).digest('hex');

/**
 * Execute with an Idempotency-Key: the key is claimed with the hash of its body, and the first answer
 * (success or refusal) is stored and replayed; the same key with another body is refused (422). The
 * key also derives the broker's client order id, so a retry racing the first request gets the same
 * order from the broker and the same trade here.
 */
export async function executeIdempotent(
  ctx: AppContext,
  user: AuthUser,
  body: TradeExecuteRequest,
  key: string | undefined,
): Promise<TradeExecuteResponse> {
  if (!key) return executeTrade(ctx, user, body, { clientOrderId: newId() });
  const repo = tradesRepo(ctx.db);
  const hash = bodyHash(body);
  await repo.claimRequest(user.id, key, hash);
  const stored = await repo.request(user.id, key);
  if (stored?.body_hash && stored.body_hash !== hash)
    throw unprocessable(
      'This Idempotency-Key was already used with a different request body; send a new key for a new trade.',
    );
  if (stored?.response) {
    const parsed = JSON.parse(stored.response) as TradeExecuteResponse | { detail: string };
    if (stored.status_code === 200) return parsed as TradeExecuteResponse;
    throw new HttpError(stored.status_code ?? 422, (parsed as { detail: string }).detail);
  }
  const clientOrderId = `idem-${createHash('sha256').update(`${user.id}\n${key}`).digest('hex').slice(0, 32)}`;
  try {
    return await executeTrade(ctx, user, body, {
      clientOrderId,
      onRecorded: () => ({ key, bodyHash: hash }),
    });
  } catch (e) {
    // A refusal is an answer; a broker outage is not, so a retry may still go through.
    const http = knownErrorToHttp(e);
    if (http && http.statusCode < 500 && http.statusCode !== 404 && http.statusCode !== 409) {
      const placed = await repo.byClientOrderIdFor(user.id, clientOrderId);
      if (placed && placed.status !== 'submitting')
        return { trade_id: placed.id, status: placed.status, message: TRADE_MESSAGES.executed };
      await repo.saveRequest(user.id, key, http.statusCode, JSON.stringify({ detail: http.detail }), hash);
    }
    throw e;
  }
}
