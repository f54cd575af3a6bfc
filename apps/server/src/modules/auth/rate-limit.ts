/**
 * Sliding one-minute window of login attempts per client IP and per username (both keys count),
 * so that one address cannot guess many passwords and many addresses cannot hammer one account.
 */
export function createLoginLimiter(maxPerMinute: number, now: () => number = Date.now) {
  const hits = new Map<string, number[]>();
  const windowMs = 60_000;

  function recent(key: string, t: number): number[] {
    const list = (hits.get(key) ?? []).filter((x) => t - x < windowMs);
    hits.set(key, list);
    return list;
  }

  return {
    /** Records an attempt; returns seconds to wait when the attempt is over the limit, else 0. */
    attempt(ip: string, username: string): number {
      const t = now();
      const keys = [`ip:${ip}`, `user:${username.toLowerCase()}`];
      const lists = keys.map((k) => recent(k, t));
      const full = lists.find((l) => l.length >= maxPerMinute);
      if (full) return Math.max(1, Math.ceil((windowMs - (t - full[0]!)) / 1000));
      for (const l of lists) l.push(t);
      if (hits.size > 50_000) for (const [k, l] of hits) if (!l.some((x) => t - x < windowMs)) hits.delete(k);
      return 0;
    },
  };
}
