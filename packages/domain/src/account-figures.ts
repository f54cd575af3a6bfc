/**
 * The account strip's figures: free margin, margin level and open P/L from what the broker reports
 * (balance, equity, margin), and the P/L realised since the start of the trader's day from the deals.
 * Money is summed in integer minor units of the account currency; the server answers these figures and
 * the dashboard shows them as they come, so there is one definition of each.
 */
import { currencyDecimals, fromMinor, sumMinor, toMinor } from './money';
import { roundToDigits } from './rounding';

export interface AccountFiguresInput {
  balance: number;
  equity: number;
  /** Margin held by the open positions (0 without any). */
  margin: number;
  currency: string;
}

export interface AccountFigures {
  balance: number;
  equity: number;
  margin: number;
  /** Equity − margin: what new positions can still use (negative when equity is below the margin). */
  free_margin: number;
  /** Equity ÷ margin × 100, 2 decimals; null without margin in use (no position open). */
  margin_level: number | null;
  /** Equity − balance: the floating P/L of the open positions, swap and fees included. */
  open_pl: number;
}

/** Free margin, margin level and open P/L from balance, equity and margin (account currency). */
export function accountFigures(input: AccountFiguresInput): AccountFigures {
  const d = currencyDecimals(input.currency);
  const balance = toMinor(input.balance, d);
  const equity = toMinor(input.equity, d);
  const margin = toMinor(input.margin, d);
  return {
    balance: fromMinor(balance, d),
    equity: fromMinor(equity, d),
    margin: fromMinor(margin, d),
    free_margin: fromMinor(equity - margin, d),
    margin_level: margin > 0 ? roundToDigits((equity / margin) * 100, 2) : null,
    open_pl: fromMinor(equity - balance, d),
  };
}

/** One fill's money in minor units, as stored with the deal. */
export interface DealMoneyMinor {
  profit_minor: number;
  commission_minor: number;
  swap_minor: number;
}

/**
 * P/L realised by a set of fills (say: those of today), in minor units: profit, commission and swap
 * of every fill, openings included (their commission is spent when they fill), so the figure is the
 * balance's change from trading over the same time.
 */
export function realisedPlMinor(deals: Iterable<DealMoneyMinor>): number {
  const parts: number[] = [];
  for (const d of deals) parts.push(d.profit_minor, d.commission_minor, d.swap_minor);
  return sumMinor(parts);
}

/** True when `zone` is an IANA time zone this runtime knows (e.g. Europe/Berlin, UTC). */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Offset of `zone` from UTC at instant t, in minutes (Berlin in summer: +120). */
function zoneOffsetMinutes(t: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(t);
  const n = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const asUtc = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return Math.round((asUtc - (t - (t % 1000))) / 60_000);
}

/**
 * The instant the calendar day containing `t` began in `zone` (epoch ms). A day that starts inside a
 * daylight-saving jump still starts at its first existing instant.
 */
export function dayStartIn(t: number, zone: string): number {
  const offset = zoneOffsetMinutes(t, zone);
  const local = t + offset * 60_000;
  const localMidnight = local - (((local % 86_400_000) + 86_400_000) % 86_400_000);
  // The offset at midnight may differ from the one at t (a DST change during the day): use midnight's.
  return localMidnight - zoneOffsetMinutes(localMidnight - offset * 60_000, zone) * 60_000;
}
