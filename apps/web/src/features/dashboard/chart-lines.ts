import type { OpenPosition, PendingOrder } from '@tradedesk/contract';

/** What a horizontal line on the chart stands for. */
export type LineKind = 'entry' | 'sl' | 'tp' | 'limit' | 'limit-sl' | 'limit-tp';

export interface ChartLine {
  /** Stable across refreshes: the trade (or order) and the kind. */
  key: string;
  kind: LineKind;
  price: number;
  /** Short label on the price axis. */
  title: string;
  /** A stop or target of an open position: the trader can drag it. */
  draggable: boolean;
  /** The trade whose stop or target the line is (our trade id). */
  tradeId: string | null;
  /** "BUY 0.10 EURUSD", for the confirm text and the handle's name. */
  describe: string;
}

export const LINE_COLORS: Record<LineKind, string> = {
  entry: '#1c7ed6',
  sl: '#e03131',
  tp: '#2f9e44',
  limit: '#ae3ec9',
  'limit-sl': '#f08c8c',
  'limit-tp': '#69db7c',
};

const lots = (v: number) => v.toFixed(2);

/**
 * The lines of the chart's symbol: each open position's entry, stop and target, and each pending
 * order's limit price with its stop and target. Only an open position's stop and target can be dragged
 * (pending orders have no amend call).
 */
export function chartLines(
  symbol: string,
  positions: readonly OpenPosition[],
  orders: readonly PendingOrder[],
): ChartLine[] {
  const out: ChartLine[] = [];
  const mine = (instrument: string) => instrument.toUpperCase() === symbol.toUpperCase();
  for (const p of positions) {
    if (!mine(p.instrument)) continue;
    const describe = `${p.direction} ${lots(p.lot_size)} ${p.instrument}`;
    const base = { tradeId: p.id, describe };
    if (p.entry_price !== null)
      out.push({
        ...base,
        key: `${p.id}:entry`,
        kind: 'entry',
        price: p.entry_price,
        title: `${p.direction} ${lots(p.lot_size)}`,
        draggable: false,
      });
    if (p.stop_loss !== null)
      out.push({ ...base, key: `${p.id}:sl`, kind: 'sl', price: p.stop_loss, title: 'SL', draggable: true });
    if (p.profit_target !== null)
      out.push({
        ...base,
        key: `${p.id}:tp`,
        kind: 'tp',
        price: p.profit_target,
        title: 'TP',
        draggable: true,
      });
  }
  for (const o of orders) {
    if (!mine(o.instrument)) continue;
    const describe = `LIMIT ${o.direction} ${lots(o.lot_size)} ${o.instrument}`;
    const base = { tradeId: o.id, describe, draggable: false };
    out.push({
      ...base,
      key: `order-${o.order_id}:limit`,
      kind: 'limit',
      price: o.limit_price,
      title: `LIMIT ${o.direction} ${lots(o.lot_size)}`,
    });
    if (o.stop_loss !== null)
      out.push({
        ...base,
        key: `order-${o.order_id}:sl`,
        kind: 'limit-sl',
        price: o.stop_loss,
        title: 'Order SL',
      });
    if (o.profit_target !== null)
      out.push({
        ...base,
        key: `order-${o.order_id}:tp`,
        kind: 'limit-tp',
        price: o.profit_target,
        title: 'Order TP',
      });
  }
  return out;
}

/** A move of a stop or target the trader dragged, before it is confirmed. */
export interface LineMove {
  line: ChartLine;
  /** The new price, on the symbol's grid. */
  price: number;
}

/** The new price of a drag, rounded to the symbol's digits; null when it rounds to where it was. */
export function movedPrice(line: ChartLine, raw: number, digits: number): number | null {
  if (!Number.isFinite(raw) || raw <= 0) return null;
  const price = Number(raw.toFixed(digits));
  return price === Number(line.price.toFixed(digits)) ? null : price;
}

/** The confirm dialog's title, text and button. */
export function moveText(move: LineMove, digits: number): { title: string; body: string; confirm: string } {
  const what = move.line.kind === 'sl' ? 'stop loss' : 'take profit';
  const title = move.line.kind === 'sl' ? 'Move Stop Loss' : 'Move Take Profit';
  return {
    title,
    body: `Move the ${what} of ${move.line.describe} from ${move.line.price.toFixed(digits)} to ${move.price.toFixed(digits)}?`,
    confirm: title,
  };
}
