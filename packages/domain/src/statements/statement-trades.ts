/**
 * Broker statements (MT5, MT4, cTrader) turned into trades: the deals a parser read are filed under
 * their positions and summed per position. Pure: times are plain numbers (wall-clock ms of the
 * statement's zone, or UTC ms: this file never looks at them except to order deals).
 */

export type StatementSide = 'BUY' | 'SELL';

export interface StatementDeal {
  /** The broker's deal id (MT5 deal ticket, cTrader deal id) or one derived from the statement. */
  deal_id: string;
  order_id: string;
  /** Null when the statement does not say (MT5 Report): paired with its position by `fileDeals`. */
  position_id: string | null;
  /** The symbol as the statement spells it. */
  symbol: string;
  side: StatementSide;
  entry: 'IN' | 'OUT';
  volume: number;
  price: number;
  /** Gross profit of the deal (0 on most IN deals), account currency. */
  profit: number;
  /** Commission and fees, negative when charged. */
  commission: number;
  swap: number;
  time: number;
  comment: string;
}

/** A balance operation: deposits and withdrawals (and credits, corrections) are never trades. */
export interface StatementCash {
  id: string;
  time: number;
  amount: number;
  kind: 'deposit' | 'withdrawal';
  comment: string;
}

export interface StatementStops {
  stop_loss: number | null;
  take_profit: number | null;
}

export interface StatementTrade {
  position_id: string;
  symbol: string;
  direction: StatementSide;
  /** Lots opened (the sum of the IN deals). */
  volume: number;
  closed_volume: number;
  /** Volume-weighted price of the IN deals. */
  entry_price: number;
  /** Volume-weighted price of the OUT deals; null while nothing is closed. */
  close_price: number | null;
  open_time: number;
  /** The last OUT deal's time once the position is fully closed, else null. */
  close_time: number | null;
  profit: number;
  commission: number;
  swap: number;
  stop_loss: number | null;
  take_profit: number | null;
  deals: StatementDeal[];
}

export interface FiledDeals {
  trades: StatementTrade[];
  /** Closing deals whose opening deal is not in the statement (opened before its first day). */
  orphans: StatementDeal[];
}

const EPS = 1e-9;
const r8 = (v: number) => Math.round(v * 1e8) / 1e8;
const r2 = (v: number) => Math.round(v * 100) / 100;

const byTime = (a: StatementDeal, b: StatementDeal) => a.time - b.time;

/**
 * Files every deal under its position. A deal that names its position keeps it. One that does not
 * (the MT5 Report lists deals without their position): an opening deal's position is its order's
 * ticket (MT5 numbers a position after the order that opened it), and a closing deal closes the
 * oldest position still open on the same symbol in the other direction (first in, first out), which
 * is what a netting account does and what a hedging account's totals per symbol come to.
 */
export function fileDeals(
  deals: readonly StatementDeal[],
  stops: ReadonlyMap<string, StatementStops> = new Map(),
): FiledDeals {
  const sorted = [...deals].sort(byTime);
  const groups = new Map<string, StatementDeal[]>();
  const byId = new Map<string, OpenPosition>();
  // Per symbol and direction, positions in opening order; `head` skips the ones closed already.
  const queues = new Map<string, { list: OpenPosition[]; head: number }>();
  const orphans: StatementDeal[] = [];
  for (const d of sorted) {
    let id = d.position_id;
    if (d.entry === 'IN') {
      id ??= d.order_id || d.deal_id;
      const o = byId.get(id);
      if (o) o.left = r8(o.left + d.volume);
      else {
        const p = { id, left: d.volume };
        byId.set(id, p);
        const key = `${d.symbol}|${d.side}`;
        const q = queues.get(key) ?? { list: [], head: 0 };
        q.list.push(p);
        queues.set(key, q);
      }
    } else {
      let o = id ? byId.get(id) : undefined;
      if (!id) {
        const q = queues.get(`${d.symbol}|${d.side === 'BUY' ? 'SELL' : 'BUY'}`);
        while (q && q.head < q.list.length && q.list[q.head]!.left <= EPS) q.head++;
        o = q?.list[q.head];
      }
      if (!o && !(id && groups.has(id))) {
        orphans.push(d);
        continue;
      }
      if (o) {
        id = o.id;
        o.left = r8(o.left - d.volume);
      }
    }
    const list = groups.get(id!) ?? [];
    list.push({ ...d, position_id: id });
    groups.set(id!, list);
  }
  const trades: StatementTrade[] = [];
  for (const [id, list] of groups) {
    const t = summarise(id, list, stops.get(id));
    if (t) trades.push(t);
    else orphans.push(...list);
  }
  trades.sort((a, b) => a.open_time - b.open_time || (a.position_id < b.position_id ? -1 : 1));
  return { trades, orphans };
}

interface OpenPosition {
  id: string;
  left: number;
}

function summarise(
  id: string,
  deals: StatementDeal[],
  stops: StatementStops | undefined,
): StatementTrade | null {
  const ins = deals.filter((d) => d.entry === 'IN');
  const outs = deals.filter((d) => d.entry === 'OUT');
  if (!ins.length) return null;
  const volume = r8(ins.reduce((s, d) => s + d.volume, 0));
  const closed = r8(outs.reduce((s, d) => s + d.volume, 0));
  const vwap = (list: StatementDeal[], v: number) => list.reduce((s, d) => s + d.price * d.volume, 0) / v;
  const fully = outs.length > 0 && closed >= volume - EPS;
  return {
    position_id: id,
    symbol: ins[0]!.symbol,
    direction: ins[0]!.side,
    volume,
    closed_volume: closed,
    entry_price: r8(vwap(ins, volume)),
    close_price: closed > 0 ? r8(vwap(outs, closed)) : null,
    open_time: ins[0]!.time,
    close_time: fully ? outs.at(-1)!.time : null,
    profit: r2(deals.reduce((s, d) => s + d.profit, 0)),
    commission: r2(deals.reduce((s, d) => s + d.commission, 0)),
    swap: r2(deals.reduce((s, d) => s + d.swap, 0)),
    stop_loss: stops?.stop_loss || null,
    take_profit: stops?.take_profit || null,
    deals,
  };
}

/**
 * The money a closed trade risked at its stop, read from the trade itself: its gross profit over
 * the distance it travelled gives the value of one price unit for its volume in the account
 * currency, at the conversion rate of the day, so no symbol specification is needed. Null without
 * a stop, when the stop was on the profitable side (nothing at risk), or when entry and close were
 * equal (the value cannot be read).
 */
export function impliedRisk(t: StatementTrade): number | null {
  if (t.stop_loss === null || t.close_price === null || t.closed_volume <= 0) return null;
  const sign = t.direction === 'BUY' ? 1 : -1;
  const moved = (t.close_price - t.entry_price) * sign;
  if (Math.abs(moved) < EPS || t.profit === 0) return null;
  const perUnit = t.profit / (moved * t.closed_volume);
  if (!(perUnit > 0)) return null;
  const adverse = (t.entry_price - t.stop_loss) * sign;
  if (adverse <= EPS) return null;
  return r2(adverse * t.volume * perUnit);
}
