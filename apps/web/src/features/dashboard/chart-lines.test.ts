import { describe, expect, it } from 'vitest';
import type { OpenPosition, PendingOrder } from '@tradedesk/contract';
import type { ChartTimeframe } from '@tradedesk/domain';
import { chartLines, movedPrice, moveText } from './chart-lines';
import { chartRange } from './chartCandles';

const position = (over: Partial<OpenPosition> = {}): OpenPosition => ({
  id: 't1',
  position_id: '101',
  instrument: 'EURUSD',
  direction: 'BUY',
  lot_size: 0.1,
  entry_price: 1.1,
  stop_loss: 1.098,
  profit_target: 1.104,
  rr_ratio: 2,
  current_pl: 3.2,
  created_at: '2026-06-29T10:30:00Z',
  ...over,
});

const order = (over: Partial<PendingOrder> = {}): PendingOrder => ({
  id: 't2',
  order_id: '77',
  instrument: 'EURUSD',
  direction: 'SELL',
  lot_size: 0.25,
  limit_price: 1.11,
  stop_loss: 1.112,
  profit_target: null,
  created_at: '2026-06-29T10:31:00Z',
  ...over,
});

describe('chartLines', () => {
  it("draws the symbol's positions (entry, SL, TP) and pending orders (limit, SL, TP)", () => {
    const lines = chartLines('eurusd', [position(), position({ id: 't3', instrument: 'GBPUSD' })], [order()]);
    expect(lines.map((l) => [l.key, l.kind, l.price, l.title, l.draggable])).toEqual([
      ['t1:entry', 'entry', 1.1, 'BUY 0.10', false],
      ['t1:sl', 'sl', 1.098, 'SL', true],
      ['t1:tp', 'tp', 1.104, 'TP', true],
      ['order-77:limit', 'limit', 1.11, 'LIMIT SELL 0.25', false],
      ['order-77:sl', 'limit-sl', 1.112, 'Order SL', false],
    ]);
    expect(lines[1]!.describe).toBe('BUY 0.10 EURUSD');
  });

  it('leaves out what a position does not have', () => {
    const lines = chartLines(
      'EURUSD',
      [position({ stop_loss: null, profit_target: null, entry_price: null })],
      [],
    );
    expect(lines).toEqual([]);
  });
});

describe('movedPrice and moveText', () => {
  const [, sl] = chartLines('EURUSD', [position()], []);
  it('rounds to the digits and ignores a drag that ends where it began', () => {
    expect(movedPrice(sl!, 1.0975432, 5)).toBe(1.09754);
    expect(movedPrice(sl!, 1.0980004, 5)).toBeNull();
    expect(movedPrice(sl!, -1, 5)).toBeNull();
    expect(movedPrice(sl!, Number.NaN, 5)).toBeNull();
  });

  it('says what moves where', () => {
    expect(moveText({ line: sl!, price: 1.0975 }, 5)).toEqual({
      title: 'Move Stop Loss',
      body: 'Move the stop loss of BUY 0.10 EURUSD from 1.09800 to 1.09750?',
      confirm: 'Move Stop Loss',
    });
  });
});

describe('chartRange', () => {
  const now = Date.parse('2026-06-29T10:30:00Z');
  it.each([
    ['15m', '2026-06-26T07:30:00.000Z', '2026-06-29T10:45:00.000Z'],
    ['1h', '2026-06-16T22:30:00.000Z', '2026-06-29T11:30:00.000Z'],
    ['1D', '2025-12-11T10:30:00.000Z', '2026-06-30T10:30:00.000Z'],
  ])('%s reads from %s to %s', (tf, from, to) => {
    expect(chartRange(tf as ChartTimeframe, now)).toEqual({ from, to });
  });
});
