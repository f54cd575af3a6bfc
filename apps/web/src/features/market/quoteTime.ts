/**
 * "Last quote …" under a live quote. A quote from today shows its time only; an older one (a market
 * closed for the weekend or a holiday) also shows its day, so Friday's close is never read as today's.
 */
export function lastQuoteText(time: string, now: Date = new Date()): string {
  const at = new Date(time);
  if (Number.isNaN(at.getTime())) return 'No quote yet';
  const clock = at.toLocaleTimeString();
  const sameDay =
    at.getFullYear() === now.getFullYear() &&
    at.getMonth() === now.getMonth() &&
    at.getDate() === now.getDate();
  if (sameDay) return `Last quote ${clock}`;
  const day = at.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
  return `Last quote ${day}, ${clock}`;
}
