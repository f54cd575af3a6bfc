/**
 * A test hook for crash tests: with TRADEDESK_CRASH_POINT set to a point's name, the process kills
 * itself there with SIGKILL, as `kill -9` would, so a test can check what a restart finds.
 * Unset (always, outside those tests) it does nothing.
 */
export type CrashPoint = 'before_order' | 'after_fill';

export function crashPoint(point: CrashPoint): void {
  if (process.env.TRADEDESK_CRASH_POINT === point) process.kill(process.pid, 'SIGKILL');
}
