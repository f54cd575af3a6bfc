import { beforeEach, describe, expect, it, vi } from 'vitest';
import { TRADE_MESSAGES } from '@tradedesk/contract';
import { BrokerError } from '../../brokers/types';
import { HttpError } from '../../lib/http-error';
import type { OrderScope } from './live-orders';

const executeTrade = vi.fn();
const openPositions = vi.fn();
vi.mock('../trades/execution', () => ({ executeTrade: (...a: unknown[]) => executeTrade(...a) }));
vi.mock('../trades/positions.service', () => ({
  positionsService: () => ({ openPositions: (...a: unknown[]) => openPositions(...a) }),
}));
const { sendOnce } = await import('./live-orders');

const busy = () => new HttpError(409, TRADE_MESSAGES.idempotencyBusy);
const logs: string[] = [];
const scope = {
  ctx: {},
  user: { id: 'u1' },
  accountId: 'a1',
  log: async (_level: string, m: string) => void logs.push(m),
} as unknown as OrderScope;
const body = { account_id: 'a1', symbol: 'EURUSD', lot_size: 0.1, direction: 'BUY' } as never;

/**
 * An entry whose first send lost its answer (the broker went down before replying) leaves its trade
 * "submitting"; the bar's retry with the same client order id gets 409 from the trades service.
 */
describe('a live entry sent again after its answer was lost', () => {
  beforeEach(() => {
    executeTrade.mockReset();
    openPositions.mockReset();
    logs.length = 0;
  });

  it('reconciles with the broker, then finds the trade the first send placed', async () => {
    executeTrade.mockRejectedValueOnce(busy()).mockResolvedValueOnce({ trade_id: 't1', status: 'open' });
    openPositions.mockResolvedValue('{"open_positions":[]}');
    await expect(sendOnce(scope, body, 'bot-1')).resolves.toEqual({ trade_id: 't1', status: 'open' });
    expect(openPositions).toHaveBeenCalledWith(scope.user, 'a1');
    // Both sends carry the same client order id: the broker never gets a second order.
    expect(executeTrade.mock.calls.map((c) => (c[3] as { clientOrderId: string }).clientOrderId)).toEqual([
      'bot-1',
      'bot-1',
    ]);
    expect(logs).toEqual(['An earlier send of this order lost its answer: reconciling with the broker.']);
  });

  it('still unsettled after the reconcile: the broker counts as unreachable, not as a refusal', async () => {
    executeTrade.mockRejectedValue(busy());
    openPositions.mockResolvedValue('{"open_positions":[]}');
    const err = await sendOnce(scope, body, 'bot-1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrokerError);
    expect((err as BrokerError).kind).toBe('unavailable');
    expect(executeTrade).toHaveBeenCalledTimes(2);
  });

  it('a refusal by the risk rules is passed on untouched, without a reconcile', async () => {
    const refused = new HttpError(422, 'max_daily_loss: the daily loss limit is reached');
    executeTrade.mockRejectedValue(refused);
    await expect(sendOnce(scope, body, 'bot-1')).rejects.toBe(refused);
    expect(openPositions).not.toHaveBeenCalled();
  });
});
