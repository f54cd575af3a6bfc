/** Display helpers of the history screens: N/A for missing values (spec: trade detail panel). */
export const NA = 'N/A';

const isMissing = (v: unknown) =>
  v === null || v === undefined || v === '' || (typeof v === 'number' && !Number.isFinite(v));

export function fmtText(v: string | null | undefined): string {
  return isMissing(v) ? NA : String(v);
}

export function fmtNumber(v: number | null | undefined, decimals: number): string {
  return isMissing(v) ? NA : (v as number).toFixed(decimals);
}

/** Prices show 5 decimals (spec section 9). */
export const fmtPrice = (v: number | null | undefined) => fmtNumber(v, 5);
/** Lots show 2 decimals. */
export const fmtLots = (v: number | null | undefined) => fmtNumber(v, 2);

/** Instants arrive in UTC and show in the browser's local time. */
export function fmtTime(iso: string | null | undefined): string {
  if (isMissing(iso)) return NA;
  const d = new Date(iso as string);
  return Number.isNaN(d.getTime()) ? NA : d.toLocaleString();
}

export function pnlColor(v: number | null | undefined): string | undefined {
  if (isMissing(v) || v === 0) return undefined;
  return (v as number) > 0 ? 'teal.7' : 'red.7';
}
