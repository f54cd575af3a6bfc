import { BrokerError } from '../types';
import type { SimChange } from './sim-store';
import { SimStateConflict } from './sim-store';
import type { SimState } from './sim-state';

/** Loading the ledger, keeping it in step with the DB, and watching the symbols it needs. */

/**
 * Persists a change, then adopts the stored balance. When another server process changed the same
 * position or order first, the state is reloaded from the DB and the caller is told it is gone.
 */
export async function write(st: SimState, change: SimChange, what: string): Promise<void> {
  try {
    const after = await st.store.apply(change);
    if (after !== undefined) st.balanceMinor = after;
  } catch (e) {
    if (!(e instanceof SimStateConflict) && !/unique|duplicate key/i.test(String((e as Error)?.message)))
      throw e;
    await load(st);
    throw new BrokerError(
      `${what} was changed by another request; it is no longer in that state.`,
      'not_found',
    );
  }
}

async function load(st: SimState): Promise<void> {
  const { store, market, now } = st;
  const acc = await store.account();
  if (!acc) throw new BrokerError('The simulated account has no ledger.', 'not_found');
  st.balanceMinor = Number(acc.balance_minor);
  st.positions.clear();
  st.orders.clear();
  for (const p of await store.positions()) st.positions.set(p.id, p);
  for (const o of await store.pendingOrders()) st.orders.set(o.id, o);
  st.connection = 'connected';
  syncSubscriptions(st);
  // Catch up at once: a stop may have been crossed while the server was down.
  for (const symbol of st.tickSubs.keys()) {
    if (market.isOpen(symbol, now())) st.onTick(market.quoteAt(symbol, now()));
  }
}

export function ensureLoaded(st: SimState): Promise<void> {
  if (!st.loading) {
    st.connection = 'connecting';
    st.loading = load(st).catch((e: unknown) => {
      st.connection = 'error';
      st.loading = undefined;
      throw e;
    });
  }
  return st.loading;
}

/** The checker watches exactly the symbols with open positions or pending orders. */
export function syncSubscriptions(st: SimState): void {
  if (st.connection !== 'connected') return;
  const needed = new Set<string>();
  for (const p of st.positions.values()) needed.add(p.symbol);
  for (const o of st.orders.values()) needed.add(o.symbol);
  for (const [symbol, unsubscribe] of st.tickSubs) {
    if (!needed.has(symbol)) {
      unsubscribe();
      st.tickSubs.delete(symbol);
    }
  }
  for (const symbol of needed) {
    if (!st.tickSubs.has(symbol)) st.tickSubs.set(symbol, st.market.subscribe(symbol, st.onTick));
  }
}

export function unsubscribeAll(st: SimState): void {
  for (const unsubscribe of st.tickSubs.values()) unsubscribe();
  st.tickSubs.clear();
  st.connection = 'disconnected';
  st.loading = undefined;
}
