import { allCapabilities, type BrokerAdapter } from '../types';
import { toDeal } from './sim-mapping';
import { simOrders } from './sim-orders';
import { infoAt } from './sim-pricing';
import { simQuotes } from './sim-quotes';
import { ensureLoaded, unsubscribeAll } from './sim-session';
import { createSimState, emit, serial, type SimAdapterOptions } from './sim-state';
import { onTick } from './sim-triggers';

export type { SimAdapterOptions } from './sim-state';
export { toSymbolInfo } from './sim-mapping';

/**
 * The simulated broker of one SIM account: a matching engine over the simulated market.
 * State lives in memory for the tick path and in the DB for restarts; every change is written
 * in one transaction first. Changes run one at a time (a per-account queue), so that a user's close
 * and a stop-loss trigger on the same tick can never both close one position.
 *
 * This file composes the parts that share one state: session (sim-session), symbols and quotes
 * (sim-quotes), orders and positions (sim-orders, sim-fills, sim-triggers) and history (deals, below).
 */
export function createSimAdapter(opts: SimAdapterOptions): BrokerAdapter {
  const st = createSimState(opts);
  st.onTick = (q) => onTick(st, q);
  return {
    platform: 'SIM',
    capabilities: allCapabilities(),
    async connect() {
      await ensureLoaded(st);
      emit(st, { type: 'connection', state: 'connected' });
    },
    async disconnect() {
      unsubscribeAll(st);
      // Let queued fills and closes finish writing before the DB goes away.
      await serial(st, async () => undefined);
      emit(st, { type: 'connection', state: 'disconnected' });
    },
    connectionState: () => st.connection,
    async accountInfo() {
      await ensureLoaded(st);
      return infoAt(st, st.now());
    },
    ...simQuotes(st),
    ...simOrders(st),
    async deals(fromIso, toIso) {
      const rows = await st.store.deals(new Date(fromIso).toISOString(), new Date(toIso).toISOString());
      return rows.map((d) => toDeal(st, d));
    },
    onEvent(listener) {
      st.listeners.add(listener);
      return () => void st.listeners.delete(listener);
    },
  };
}
