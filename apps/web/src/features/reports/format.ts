import { fromMinor } from '@tradedesk/domain';
import { NA } from '../history/format';

/** Minor units as a signed amount with a sign always shown, so a loss reads as one without colour. */
export function money(minor: number | null, decimals: number): string {
  if (minor === null) return NA;
  const v = fromMinor(minor, decimals);
  return `${v > 0 ? '+' : v < 0 ? '−' : ''}${Math.abs(v).toFixed(decimals)}`;
}

export const pct = (v: number | null) => (v === null ? NA : `${(v * 100).toFixed(1)}%`);
export const ratio = (v: number | null) => (v === null ? NA : v.toFixed(2));
export const rText = (v: number | null) =>
  v === null ? NA : `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(2)}R`;
