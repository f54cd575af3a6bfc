/**
 * Sliding one-minute window of failed logins, per client IP and username together and per IP alone:
 * a guesser gets `perPair` tries at one account from one address, and `perIp` across usernames.
 * Successful logins do not count, so people behind one address are not locked out by each other.
 */
export function createLoginLimiter(perPair: number, perIp = perPair * 5, now: () => number = Date.now) {
  const failures = new Map<string, number[]>();
  const windowMs = 60_000;

  function recent(key: string, t: number): number[] {
    const list = (failures.get(key) ?? []).filter((x) => t - x < windowMs);
    if (list.length) failures.set(key, list);
    else failures.delete(key);
    return list;
  }
  const keys = (ip: string, username: string) =>
    [
      [`pair:${ip}|${username.toLowerCase()}`, perPair],
      [`ip:${ip}`, perIp],
    ] as const;

  return {
    /** Seconds to wait before another attempt is allowed, or 0 when the attempt may go ahead. */
    retryAfter(ip: string, username: string): number {
      const t = now();
      for (const [key, limit] of keys(ip, username)) {
        const list = recent(key, t);
        if (list.length >= limit) return Math.max(1, Math.ceil((windowMs - (t - list[0]!)) / 1000));
      }
      return 0;
    },
    recordFailure(ip: string, username: string): void {
      const t = now();
      for (const [key] of keys(ip, username)) failures.set(key, [...recent(key, t), t]);
      if (failures.size > 50_000) for (const k of [...failures.keys()]) recent(k, t);
    },
  };
}
