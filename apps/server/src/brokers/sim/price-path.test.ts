import { describe, expect, it } from 'vitest';
import { CrossPath, GRID_MS, PrimaryPath, TOP_LEVEL } from './price-path';
import { sessionTable } from './sessions';
import { SIM_SYMBOLS } from './symbols';

const def = (symbol: string) => SIM_SYMBOLS.find((d) => d.symbol === symbol)!;
const BLOCK_MS = 2 ** TOP_LEVEL * GRID_MS;

describe('price path construction', () => {
  const eur = new PrimaryPath(5, def('EURUSD'));
  const jpy = new PrimaryPath(5, def('USDJPY'));

  it('gives the same value for an instant whether computed alone or within a range, at every level', () => {
    // A range that contains a weekend and a block boundary (blocks are 2^TOP_LEVEL grid steps).
    const boundary = Math.ceil(Date.UTC(2025, 0, 1) / BLOCK_MS) * BLOCK_MS;
    for (const centre of [Date.UTC(2026, 10, 20, 21), boundary]) {
      for (const level of [0, 3, 8, 12]) {
        const step = 2 ** level;
        const m0 = Math.floor((centre - 3 * 86_400_000) / GRID_MS / step);
        const count = Math.min(20_000, Math.ceil((6 * 86_400_000) / GRID_MS / step));
        const values = eur.fill(level, m0, m0 + count);
        for (let i = 0; i <= count; i += Math.max(1, Math.floor(count / 400))) {
          expect(values[i]).toBe(eur.logMid((m0 + i) * step));
        }
      }
    }
  });

  it('refines extra points inside the sampled grid exactly as a direct computation', () => {
    const m0 = Math.floor(Date.UTC(2026, 10, 16) / GRID_MS / 4096);
    const points = [
      m0 * 4096 + 1,
      m0 * 4096 + 4095,
      (m0 + 10) * 4096 + 777,
      (m0 + 3) * 4096,
      (m0 - 5) * 4096 + 3,
    ];
    const r = eur.fillWithPoints(12, m0, m0 + 20, points);
    points.forEach((k, i) => expect(r.points[i]).toBe(eur.logMid(k)));
    const cross = new CrossPath([
      { path: eur, power: 1 },
      { path: jpy, power: 1 },
    ]);
    const rc = cross.fillWithPoints(12, m0, m0 + 20, points);
    points.forEach((k, i) => expect(rc.points[i]).toBeCloseTo(eur.logMid(k) + jpy.logMid(k), 12));
  });

  it('does not move while the market is closed, and gaps at the reopening', () => {
    const fri = Date.UTC(2026, 10, 20, 22) / GRID_MS;
    const sun = Date.UTC(2026, 10, 22, 22) / GRID_MS;
    const during = eur.fill(0, fri, sun - 1);
    expect(new Set(during).size).toBe(1);
    expect(eur.logMid(sun)).not.toBe(during[0]);
  });

  it('has the annual volatility it is given, measured on daily returns', () => {
    const table = sessionTable('fx');
    const usd = new PrimaryPath(11, def('USDCHF'));
    let sum = 0;
    let sum2 = 0;
    let n = 0;
    // Two years of weekday-to-weekday (22:00 to 22:00 UTC) returns.
    for (let d = 0; d < 730; d++) {
      const t = Date.UTC(2024, 0, 1, 22) + d * 86_400_000;
      if (!table.isOpen(t) || !table.isOpen(t + 86_400_000 - 3_600_000)) continue;
      const r = usd.logMid((t + 86_400_000) / GRID_MS) - usd.logMid(t / GRID_MS);
      sum += r;
      sum2 += r * r;
      n++;
    }
    const sd = Math.sqrt(sum2 / n - (sum / n) ** 2);
    // Weekday returns carry 5/7 of the weekly variance minus the weekend gap share; allow a broad band.
    const annual = sd * Math.sqrt(n / 2);
    expect(annual).toBeGreaterThan(def('USDCHF').annual_vol * 0.6);
    expect(annual).toBeLessThan(def('USDCHF').annual_vol * 1.3);
  });
});
