import { BrokerError } from '../types';
import { toBrokerError, type OpenApiConnection } from './openapi-client';
import { ExecutionType, PT, enumValue } from './protocol';
import type { CtState } from './ct-state';

/** Requests on the live connection: plain request/response calls and trading requests answered by events. */

/** The open connection, connecting first when needed; fails fast with 'unavailable' when the server is down. */
export async function live(st: CtState): Promise<OpenApiConnection> {
  if (st.conn?.isOpen && st.state === 'connected') return st.conn;
  try {
    await st.connect();
  } catch (e) {
    throw toBrokerError(e);
  }
  if (!st.conn?.isOpen)
    throw new BrokerError(`cTrader is unreachable: ${st.lastError ?? 'not connected'}`, 'unavailable');
  return st.conn;
}

export async function call(
  st: CtState,
  payloadType: number,
  payload: Record<string, unknown>,
  expect: number,
): Promise<Record<string, unknown>> {
  const conn = await live(st);
  try {
    const f = await conn.request(
      payloadType,
      { ctidTraderAccountId: st.opts.ctidTraderAccountId, ...payload },
      expect,
    );
    return f.payload ?? {};
  } catch (e) {
    throw toBrokerError(e);
  }
}

/** Sends a trading request answered by ProtoOAExecutionEvent (or an error) with the same clientMsgId. */
export async function execute(
  st: CtState,
  payloadType: number,
  payload: Record<string, unknown>,
  accept: (type: number | undefined, p: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  const conn = await live(st);
  const msgId = crypto.randomUUID();
  const done = conn.waitFor((f) => {
    if (f.clientMsgId !== msgId) return undefined;
    if (
      f.payloadType === PT.ORDER_ERROR_EVENT ||
      f.payloadType === PT.ERROR_RES_OA ||
      f.payloadType === PT.ERROR_RES
    )
      return 'reject';
    if (f.payloadType !== PT.EXECUTION_EVENT) return undefined;
    const t = enumValue('executionType', f.payload?.executionType);
    if (t === ExecutionType.ORDER_REJECTED || t === ExecutionType.ORDER_CANCEL_REJECTED) return 'reject';
    return accept(t, f.payload ?? {}) ? 'resolve' : undefined;
  });
  try {
    conn.send(payloadType, { ctidTraderAccountId: st.opts.ctidTraderAccountId, ...payload }, msgId);
    return (await done).payload ?? {};
  } catch (err) {
    done.catch(() => undefined);
    throw toBrokerError(err);
  }
}
