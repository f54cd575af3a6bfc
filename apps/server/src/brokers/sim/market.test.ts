import { describe, expect, it } from 'vitest';
import { createSimMarket } from './market';

const WED_15H = Date.UTC(2026, 10, 18, 15, 0, 0); // Wednesday, London/NY overlap

describe('sim market basics', () => {
  it('quotes every catalogue symbol with ask above bid', () => {
    const m = createSimMarket({ seed: 7 });
    for (const s of m.specs()) {
      const q = m.quoteAt(s.symbol, WED_15H);
      expect(q.ask).toBeGreaterThan(q.bid);
      expect(q.symbol).toBe(s.symbol);
    }
  });

  it('is deterministic from the seed', () => {
    const a = createSimMarket({ seed: 7 });
    const b = createSimMarket({ seed: 7 });
    const c = createSimMarket({ seed: 8 });
    expect(a.quoteAt('EURUSD', WED_15H)).toEqual(b.quoteAt('EURUSD', WED_15H));
    expect(a.quoteAt('EURUSD', WED_15H).bid).not.toBe(c.quoteAt('EURUSD', WED_15H).bid);
  });
});
