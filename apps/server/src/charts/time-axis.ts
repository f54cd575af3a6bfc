const pad = (n: number) => String(n).padStart(2, '0');

/** A bar's time as the axis shows it (UTC): the date for daily bars and above, else date and time. */
export function timeLabel(ms: number, timeframe: string): string {
  const d = new Date(ms);
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  if (timeframe === '1M') return date.slice(0, 7);
  if (timeframe === '1D' || timeframe === '1W') return date;
  return `${date.slice(5)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** The header's range: first and last bar, with the year, in UTC. */
export function rangeLabel(fromMs: number, toMs: number): string {
  const fmt = (ms: number) => {
    const d = new Date(ms);
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  };
  return `${fmt(fromMs)} – ${fmt(toMs)} UTC`;
}

/** Indexes of the bars that get a label: evenly spaced, about `count` of them. */
export function tickIndexes(length: number, count: number): number[] {
  if (length <= 0) return [];
  const step = Math.max(1, Math.round(length / count));
  const out: number[] = [];
  for (let i = Math.floor(step / 2); i < length; i += step) out.push(i);
  return out;
}
