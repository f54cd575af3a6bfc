import { BrokerError, type DealReason, type Quote } from '../types';
import { closeVolume, fillPending } from './sim-fills';
import { closePrice } from './sim-pricing';
import { emit, serial, type SimState } from './sim-state';

/** The trigger checker: stops, targets and limit orders crossed by a tick. */

/** Another process that closed or filled first is not an error: the state was reloaded. */
function triggerFailed(st: SimState, err: unknown, id: string): void {
  if (err instanceof BrokerError && err.kind === 'not_found')
    st.log?.debug({ id }, 'sim trigger already handled');
  else st.log?.error({ err, id }, 'sim trigger failed');
}

export function onTick(st: SimState, q: Quote): void {
  const { positions, orders, triggered } = st;
  if (st.listeners.size > 0) emit(st, { type: 'quote', quote: q });
  for (const p of positions.values()) {
    if (p.symbol !== q.symbol || triggered.has(p.id)) continue;
    const px = closePrice(p.side, q);
    let reason: DealReason | undefined;
    if (p.side === 'BUY') {
      if (p.stop_loss !== null && px <= p.stop_loss) reason = 'STOP_LOSS';
      else if (p.take_profit !== null && px >= p.take_profit) reason = 'TAKE_PROFIT';
    } else {
      if (p.stop_loss !== null && px >= p.stop_loss) reason = 'STOP_LOSS';
      else if (p.take_profit !== null && px <= p.take_profit) reason = 'TAKE_PROFIT';
    }
    if (!reason) continue;
    const r = reason;
    triggered.add(p.id);
    void serial(st, async () => {
      const live = positions.get(p.id);
      if (live) await closeVolume(st, live, live.volume, px, q.time, r);
    })
      .catch((err: unknown) => triggerFailed(st, err, p.id))
      .finally(() => triggered.delete(p.id));
  }
  for (const o of orders.values()) {
    if (o.symbol !== q.symbol || triggered.has(o.id) || o.limit_price === null) continue;
    const crossed = o.side === 'BUY' ? q.ask <= o.limit_price : q.bid >= o.limit_price;
    if (!crossed) continue;
    triggered.add(o.id);
    void serial(st, async () => {
      const live = orders.get(o.id);
      if (live) await fillPending(st, live, q);
    })
      .catch((err: unknown) => triggerFailed(st, err, o.id))
      .finally(() => triggered.delete(o.id));
  }
}
