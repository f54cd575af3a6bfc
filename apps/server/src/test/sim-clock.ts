/**
 * A Wednesday morning in London: FX is open, so the simulated prices tick. Tests hand the app
 * `simNow: () => clock` and move `clock` themselves, so the sim's clock only moves when a test moves it.
 */
export const WEDNESDAY = Date.parse('2026-01-07T10:00:00Z');
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
