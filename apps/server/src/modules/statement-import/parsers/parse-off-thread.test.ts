import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStatement } from './detect';
import { parseStatementOffThread } from './parse-off-thread';

const fixtures = path.join(import.meta.dirname, '..', 'fixtures');
const fixture = (name: string) => readFileSync(path.join(fixtures, name));

/** An MT5 Deals CSV of `trades` round trips (two deals each): about 130 bytes a deal. */
function bigDealsCsv(trades: number): Buffer {
  const lines = [
    'Time;Deal;Order;Position;Symbol;Type;Entry;Volume;Price;Commission;Fee;Swap;Profit;Magic;Comment',
  ];
  const t0 = Date.UTC(2025, 0, 6, 8);
  const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ').replace(/-/g, '.');
  for (let i = 0; i < trades; i++) {
    const at = t0 + i * 600_000;
    const pos = 5_000_000 + i;
    lines.push(
      `${stamp(at)};${7_000_000 + 2 * i};${pos};${pos};EURUSD#;DEAL_TYPE_BUY;DEAL_ENTRY_IN;0.10;1.09000;-0.35;0.00;0.00;0.00;0;`,
      `${stamp(at + 300_000)};${7_000_001 + 2 * i};${pos + 1};${pos};EURUSD#;DEAL_TYPE_SELL;DEAL_ENTRY_OUT;0.10;1.09100;-0.35;0.00;0.00;10.00;0;`,
    );
  }
  return Buffer.from(lines.join('\r\n'));
}

/** The longest stretch, in ms, the event loop went without a 5 ms timer firing while `work` ran. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work();
    longest = Math.max(longest, performance.now() - last);
  } finally {
    clearInterval(timer);
  }
  return longest;
}

describe('statements read off the event loop', () => {
  it('a statement read on a worker thread is the one read in place, to the last field', async () => {
    for (const name of ['mt5-deals.csv', 'mt5-report.html', 'mt4-statement.html', 'ctrader-history.csv']) {
      const bytes = fixture(name);
      const inPlace = parseStatement(bytes);
      expect(inPlace, name).not.toBeNull();
      expect(await parseStatementOffThread(bytes, 0), name).toEqual(inPlace);
    }
    expect(await parseStatementOffThread(fixture('not-a-statement.csv'), 0)).toBeNull();
  });

  it('a large statement no longer stalls the server: other work goes on while it is read', async () => {
    const big = bigDealsCsv(40_000); // about 10 MB
    expect(big.length).toBeGreaterThan(8_000_000);
    await parseStatementOffThread(Buffer.from('warm-up'), 0); // the worker's bundle, built once
    const inPlace = await longestStall(async () => parseStatement(big));
    let parsed: Awaited<ReturnType<typeof parseStatementOffThread>> = null;
    const offThread = await longestStall(async () => {
      parsed = await parseStatementOffThread(big);
    });
    expect(parsed!.deals).toHaveLength(80_000);
    // Read in place, the whole parse is one stall; on the worker thread the loop keeps turning.
    expect(offThread).toBeLessThan(inPlace / 2);
  }, 60_000);
});
