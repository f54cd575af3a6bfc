import { afterAll, beforeAll, expect, it } from 'vitest';
import fc from 'fast-check';
import { cleanSymbol } from '@tradedesk/domain';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { newTrader } from '../../test/traders';
import { postForm } from '../../test/form-data';

/** A closed position as a statement would hold it: one opening deal, one to three closing ones. */
interface GenTrade {
  symbol: string;
  side: 'BUY' | 'SELL';
  lots: number;
  /** Price in ticks of 0.00001. */
  ticks: number;
  openMinute: number;
  /** Closing deals: minutes after the open, share of the lots (in hundredths), profit cents. */
  closes: Array<{ after: number; profitCents: number; commissionCents: number; swapCents: number }>;
}

const SYMBOLS = ['EURUSD', 'GBPUSD.m', 'XAUUSD#', 'USDJPY.pro', 'BTCUSD-ECN'];
const BASE = Date.UTC(2026, 4, 4, 0, 0, 0);

const genTrade: fc.Arbitrary<GenTrade> = fc.record({
  symbol: fc.constantFrom(...SYMBOLS),
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  lots: fc.integer({ min: 3, max: 300 }).map((v) => v / 100),
  ticks: fc.integer({ min: 50_000, max: 300_000 }),
  openMinute: fc.integer({ min: 0, max: 60 * 24 * 20 }),
  closes: fc.array(
    fc.record({
      after: fc.integer({ min: 1, max: 60 * 24 * 3 }),
      profitCents: fc.integer({ min: -500_000, max: 500_000 }),
      commissionCents: fc.integer({ min: -2_000, max: 0 }),
      swapCents: fc.integer({ min: -3_000, max: 3_000 }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
});

const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ').replace(/-/g, '.');
const money = (cents: number) => (cents / 100).toFixed(2);

/** The trades as an MT5 Deals CSV, with the expected export rows. */
function statement(trades: GenTrade[]) {
  const lines = [
    'Time;Deal;Order;Position;Symbol;Type;Entry;Volume;Price;Commission;Fee;Swap;Profit;Magic;Comment',
  ];
  const expected: string[][] = [];
  let deal = 1;
  trades.forEach((t, i) => {
    const position = String(900_000 + i);
    const open = BASE + t.openMinute * 60_000;
    const price = (t.ticks / 100_000).toFixed(5);
    lines.push(
      [
        stamp(open),
        deal++,
        position,
        position,
        t.symbol,
        t.side.toLowerCase(),
        'in',
        t.lots.toFixed(2),
        price,
        '0.00',
        '0.00',
        '0.00',
        '0.00',
        0,
        '',
      ].join(';'),
    );
    // Split the lots over the closes in whole hundredths, the last one taking the rest.
    const hundredths = Math.round(t.lots * 100);
    const parts = t.closes.length > hundredths ? [t.closes[0]!] : t.closes;
    let left = hundredths;
    let time = open;
    let cents = 0;
    parts.forEach((c, k) => {
      const v = k === parts.length - 1 ? left : Math.floor(hundredths / parts.length);
      left -= v;
      time += c.after * 60_000;
      cents += c.profitCents + c.commissionCents + c.swapCents;
      lines.push(
        [
          stamp(time),
          deal++,
          `${position}${k}`,
          position,
          t.symbol,
          t.side === 'BUY' ? 'sell' : 'buy',
          'out',
          (v / 100).toFixed(2),
          price,
          money(c.commissionCents),
          '0.00',
          money(c.swapCents),
          money(c.profitCents),
          0,
          '',
        ].join(';'),
      );
    });
    expected.push([
      new Date(open).toISOString(),
      new Date(time).toISOString(),
      cleanSymbol(t.symbol),
      t.side,
      String(t.lots),
      String(Number(price)),
      money(cents),
      'closed',
      'import',
    ]);
  });
  return { csv: lines.join('\r\n') + '\r\n', expected };
}

describeEachDb('statement import round trip', (target) => {
  let h: Harness;
  let n = 0;
  beforeAll(async () => {
    h = await createHarness(target);
  });
  afterAll(() => h.close());

  it('import, then export as CSV: the same trades', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(genTrade, { minLength: 1, maxLength: 6 }), async (trades) => {
        const t = await newTrader(h, `roundtrip${++n}`);
        const { csv, expected } = statement(trades);
        const res = await postForm(
          h,
          `/api/history/accounts/${t.accountId}/import/?time_zone=UTC`,
          t.token,
          {},
          { field: 'file', name: 'deals.csv', data: csv },
        );
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().imported.new_trades).toBe(trades.length);
        const exported = await h.request(
          'GET',
          `/api/history/accounts/${t.accountId}/trades.csv?sort=oldest`,
          { token: t.token },
        );
        expect(exported.statusCode).toBe(200);
        const [header, ...rows] = exported.body
          .trim()
          .split('\r\n')
          .map((l) => l.split(','));
        const col = (name: string) => header!.indexOf(name);
        const pick = [
          'created_at',
          'closed_at',
          'instrument',
          'direction',
          'lot_size',
          'entry_price',
          'actual_profit_loss',
          'trade_status',
          'source',
        ].map(col);
        const got = rows.map((r) => pick.map((i) => r[i]!));
        const order = (list: string[][]) => [...list].sort((a, b) => (a.join() < b.join() ? -1 : 1));
        expect(order(got)).toEqual(order(expected));
      }),
      { numRuns: 12, seed: 20260615 },
    );
  });
});
