import { BrokerError, type Deal } from '../types';
import { http } from './mt5-http';
import { toDeal } from './mt5-mapping';
import type { Mt5State } from './mt5-state';
import type { WireDeal } from './protocol';

/** Deal history: fetched by time range, each OUT deal told apart as a full or partial close. */

export async function deals(st: Mt5State, fromIso: string, toIso: string): Promise<Deal[]> {
  const from = Date.parse(fromIso);
  const to = Date.parse(toIso);
  if (!Number.isFinite(from) || !Number.isFinite(to))
    throw new BrokerError('Deal history needs a valid time range.', 'rejected');
  return mapDeals(st, await fetchDeals(st, from, to));
}

export async function fetchDeals(st: Mt5State, from: number, to: number): Promise<WireDeal[]> {
  const q = new URLSearchParams({ from: String(from), to: String(to) });
  return (await http<{ deals: WireDeal[] }>(st, 'GET', `/deals?${q}`)).deals;
}

/**
 * An OUT deal is a partial close while the position keeps volume after it: known exactly when the
 * opening deal is in the list, otherwise from whether the position is still open (`openIds`).
 */
export function mapDeals(
  st: Mt5State,
  list: WireDeal[],
  openIds: Set<string> = new Set(st.knownPositions.keys()),
): Deal[] {
  const sorted = [...list].sort((a, b) => a.time_msc - b.time_msc || a.ticket - b.ticket);
  const inVol = new Map<number, number>();
  const outVol = new Map<number, number>();
  const lastOut = new Map<number, number>();
  for (const d of sorted) {
    if (d.entry === 'IN') inVol.set(d.position_id, (inVol.get(d.position_id) ?? 0) + d.volume);
    else if (d.entry !== 'INOUT') lastOut.set(d.position_id, d.ticket);
  }
  return sorted.map((d) => {
    if (d.entry === 'IN' || d.entry === 'INOUT') return toDeal(d, false);
    const out = (outVol.get(d.position_id) ?? 0) + d.volume;
    outVol.set(d.position_id, out);
    const opened = inVol.get(d.position_id);
    const partial =
      opened !== undefined
        ? out + 1e-9 < opened
        : openIds.has(String(d.position_id)) || lastOut.get(d.position_id) !== d.ticket;
    return toDeal(d, partial);
  });
}
