import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { createLoginLimiter } from './rate-limit';

describeEachDb('login limiter', (target) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(target);
  });
  afterAll(() => h.close());

  function limiter(perPair = 3, perIp = 5) {
    let now = 1_000_000;
    const l = createLoginLimiter(h.ctx.db, perPair, perIp, () => now);
    return { l, advance: (ms: number) => (now += ms) };
  }

  it('blocks an address and username pair after its attempts, until the minute has passed', async () => {
    const { l, advance } = limiter();
    for (let i = 0; i < 3; i++) {
      expect(await l.reserve('1.1.1.1', 'ann')).toBe(0);
      advance(1000);
    }
    expect(await l.reserve('1.1.1.1', 'ann')).toBe(57); // the window opened 3 s ago
    expect(await l.reserve('1.1.1.1', 'ANN')).toBeGreaterThan(0); // usernames are not case-sensitive here
    expect(await l.reserve('2.2.2.2', 'ann')).toBe(0); // the owner elsewhere is not locked out
    advance(57_000);
    expect(await l.reserve('1.1.1.1', 'ann')).toBe(0);
  });

  it('gives a successful attempt back', async () => {
    const { l } = limiter(2, 100);
    for (let i = 0; i < 5; i++) {
      expect(await l.reserve('5.5.5.5', 'bea')).toBe(0);
      await l.release('5.5.5.5', 'bea');
    }
  });

  it('blocks an address spraying many usernames once it reaches the per-address limit', async () => {
    const { l } = limiter(3, 5);
    for (let i = 0; i < 5; i++) expect(await l.reserve('3.3.3.3', `user${i}`)).toBe(0);
    expect(await l.reserve('3.3.3.3', 'someone-new')).toBeGreaterThan(0);
    expect(await l.reserve('4.4.4.4', 'someone-new')).toBe(0);
  });

  it('admits at most the limit of 100 simultaneous reservations', async () => {
    const { l } = limiter(10, 1000);
    const waits = await Promise.all(Array.from({ length: 100 }, () => l.reserve('6.6.6.6', 'cy')));
    expect(waits.filter((w) => w === 0)).toHaveLength(10);
  });
});
