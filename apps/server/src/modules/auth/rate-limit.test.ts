import { describe, expect, it } from 'vitest';
import { createLoginLimiter } from './rate-limit';

describe('login limiter', () => {
  function limiter(perPair = 3, perIp = 5) {
    let now = 1_000_000;
    const l = createLoginLimiter(perPair, perIp, () => now);
    return { l, advance: (ms: number) => (now += ms) };
  }

  it('blocks an address and username pair after its failures, until the minute has passed', () => {
    const { l, advance } = limiter();
    for (let i = 0; i < 3; i++) {
      expect(l.retryAfter('1.1.1.1', 'ann')).toBe(0);
      l.recordFailure('1.1.1.1', 'ann');
      advance(1000);
    }
    expect(l.retryAfter('1.1.1.1', 'ann')).toBe(57); // the first failure leaves the window in 57 s
    expect(l.retryAfter('1.1.1.1', 'ANN')).toBeGreaterThan(0); // usernames are not case-sensitive here
    expect(l.retryAfter('2.2.2.2', 'ann')).toBe(0); // the owner elsewhere is not locked out
    advance(57_000);
    expect(l.retryAfter('1.1.1.1', 'ann')).toBe(0);
  });

  it('blocks an address spraying many usernames once it reaches the per-address limit', () => {
    const { l } = limiter(3, 5);
    for (let i = 0; i < 5; i++) {
      expect(l.retryAfter('3.3.3.3', `user${i}`)).toBe(0);
      l.recordFailure('3.3.3.3', `user${i}`);
    }
    expect(l.retryAfter('3.3.3.3', 'someone-new')).toBeGreaterThan(0);
    expect(l.retryAfter('4.4.4.4', 'someone-new')).toBe(0);
  });
});
