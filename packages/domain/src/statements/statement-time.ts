import { zoneOffset } from '../reports/time-zone';

/**
 * Statement times are the broker server's wall clock. `wallClockToUtc` turns one into a UTC instant
 * for a chosen zone: an IANA name, or 'FX', the clock most MT4/MT5 brokers run: New York time plus
 * seven hours (UTC+2 in winter, UTC+3 while the US is on summer time), so that the trading day
 * closes at midnight.
 */
export const FX_SERVER_ZONE = 'FX';

const HOUR = 3_600_000;

function offsetOf(zone: string): (utcMs: number) => number {
  if (zone === FX_SERVER_ZONE) {
    const ny = zoneOffset('America/New_York');
    return (ms) => ny(ms) + 7 * HOUR;
  }
  return zoneOffset(zone);
}

/** Whether the zone is one `wallClockToUtc` knows. */
export function isStatementZone(zone: string): boolean {
  if (zone === FX_SERVER_ZONE || zone === 'UTC') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * UTC ms of a wall-clock time (given as if it were UTC ms) in the zone. Two steps settle every time
 * but those a clock change skips or repeats: a skipped time moves by the change, a repeated one
 * takes the first instant.
 */
export function wallClockToUtc(localMs: number, zone: string): number {
  const offset = offsetOf(zone);
  const first = localMs - offset(localMs);
  const second = localMs - offset(first);
  return offset(second) === offset(first) ? second : Math.min(first, second);
}
