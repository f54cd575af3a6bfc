import { BrokerError, type Deal } from '../types';
import { call } from './ct-call';
import { toDeal } from './ct-mapping';
import type { CtState } from './ct-state';
import { PT } from './protocol';
import { arr, normDeal } from './protocol-normalise';

/** Deal history, walked a week at a time. */

const WEEK_MS = 7 * 86_400_000;

export async function deals(st: CtState, fromIso: string, toIso: string): Promise<Deal[]> {
  const from = Date.parse(fromIso);
  const to = Date.parse(toIso);
  if (!Number.isFinite(from) || !Number.isFinite(to))
    throw new BrokerError('cTrader: invalid time range', 'rejected');
  const out = new Map<number, Deal>();
  // The server caps one request's window and rows; walk the range a week at a time.
  for (let start = from; start <= to; start += WEEK_MS) {
    let end = Math.min(to, start + WEEK_MS - 1);
    for (let page = 0; page < 20; page++) {
      const res = await call(
        st,
        PT.DEAL_LIST_REQ,
        { fromTimestamp: start, toTimestamp: end, maxRows: 1000 },
        PT.DEAL_LIST_RES,
      );
      const deals = arr(res.deal).map(normDeal);
      for (const d of deals) {
        if (d.dealStatus !== 2 && d.dealStatus !== 3) continue;
        out.set(d.dealId, toDeal(st, d));
      }
      if (res.hasMore !== true || !deals.length) break;
      const earliest = Math.min(...deals.map((d) => d.executionTimestamp));
      if (earliest <= start) break;
      end = earliest - 1;
    }
  }
  return [...out.values()].sort(
    (a, b) => a.time.localeCompare(b.time) || Number(a.deal_id) - Number(b.deal_id),
  );
}
