/**
 * Risk-rule evaluation: may this account place this order now?
 *
 * Pure: the caller passes the settings, the account's state (equity, balance, open positions with
 * their open risk, today's closed trades) and `now`; nothing reads a clock. Money is summed in
 * integer minor units. A rule whose setting is null/undefined (or 0 for counts/limits) is off.
 */
import { currencyDecimals, formatMoney, fromMinor, sumMinor, toMinor } from './money';

export interface RiskSettings {
  /** Max loss in a day, in % of the balance at the start of the day (realised today + open risk + this order). */
  max_daily_loss?: number | null;
  /** The default risk per trade (%); a sizing default, not a rule. */
  risk_percent?: number | null;
  /** Max risk of a single trade, in % of equity. */
  max_trade_risk?: number | null;
  max_open_positions?: number | null;
  /** Turns the cooldown rule on. */
  enforce_cooldowns?: boolean | number | null;
  /** Consecutive losing closes that start a cooldown. */
  consecutive_loss_limit?: number | null;
  /** 'HH:MM:SS' wait after the last loss of the streak. */
  cooldown_period?: string | null;
  /** Max lots of one order. */
  max_lot_size?: number | null;
  max_open_trades_same_symbol?: number | null;
}

export interface OpenPositionRisk {
  symbol: string;
  /** Money lost if its stop is hit now, positive, in the account currency (0 when the stop locks in profit). */
  open_risk: number;
}

export interface ClosedTradeToday {
  /** Realised P/L in the account currency (negative for a loss), commission and swap included. */
  profit_loss: number;
  /** Close instant: ISO-8601 text, epoch ms, or Date. */
  closed_at: string | number | Date;
}

export interface RiskContext {
  currency: string;
  equity: number;
  balance: number;
  /** Balance at the start of the trading day; defaults to balance − today's realised P/L. */
  day_start_balance?: number | null;
  /**
   * Today's realised P/L with commissions and swaps, from every deal of the day (an open trade's
   * entry commission included: it has left the balance); defaults to the sum of closed_today.
   */
  realised_today?: number | null;
  open_positions: readonly OpenPositionRisk[];
  /** Trades closed today (any order; sorted here by close time). */
  closed_today: readonly ClosedTradeToday[];
  /** The current instant, passed in: ISO-8601 text, epoch ms, or Date. */
  now: string | number | Date;
}

export interface OrderRisk {
  symbol: string;
  /** Lots. */
  volume: number;
  /** Money lost at the stop, positive, in the account currency. */
  risk: number;
}

export type RiskRule =
  | 'max_lot_size'
  | 'max_trade_risk'
  | 'max_open_positions'
  | 'max_open_trades_same_symbol'
  | 'max_daily_loss'
  | 'cooldown';

export interface RiskViolation {
  rule: RiskRule;
  /** User-facing explanation naming the rule and the numbers. */
  detail: string;
}

export type RiskDecision =
  { allowed: true } | ({ allowed: false; violations: RiskViolation[] } & RiskViolation);

/** Parse 'HH:MM:SS' (hours 00-99, minutes and seconds 00-59) to seconds; null when the text is invalid. */
export function parseCooldown(text: string): number | null {
  const m = /^(\d{2}):([0-5]\d):([0-5]\d)$/.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

/** True for a valid 'HH:MM:SS' cooldown text. */
export function isValidCooldown(text: string): boolean {
  return parseCooldown(text) !== null;
}

/** Seconds → 'HH:MM:SS' (hours may exceed 24). */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.ceil(totalSeconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

function toEpochMs(t: string | number | Date, what: string): number {
  const ms = t instanceof Date ? t.getTime() : typeof t === 'number' ? t : Date.parse(t);
  if (!Number.isFinite(ms)) throw new RangeError(`${what} is not a valid instant: ${String(t)}.`);
  return ms;
}

function on(v: number | null | undefined): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0;
}

function pct(v: number): string {
  return `${v.toFixed(2)}%`;
}

function lotsText(v: number): string {
  return v.toFixed(2);
}

/** Lots are compared on a 1e-9 grid so 0.1 + 0.2 lots is not "above" a 0.3 limit. */
const LOT_EPSILON = 1e-9;

/**
 * Evaluate every enabled rule; returns `{allowed: true}` or the first violation (in the order
 * max_lot_size, max_trade_risk, max_open_positions, max_open_trades_same_symbol, max_daily_loss,
 * cooldown) with all violations in `violations`.
 */
export function evaluateRiskRules(
  settings: RiskSettings,
  context: RiskContext,
  order: OrderRisk,
): RiskDecision {
  const violations: RiskViolation[] = [];
  const cur = context.currency;
  const decimals = currencyDecimals(cur);
  const minor = (v: number) => toMinor(v, decimals);
  const money = (m: number) => formatMoney(fromMinor(m, decimals), cur);

  const orderRiskMinor = Math.max(0, minor(order.risk));

  if (on(settings.max_lot_size) && order.volume > settings.max_lot_size + LOT_EPSILON) {
    violations.push({
      rule: 'max_lot_size',
      detail: `max_lot_size: this order is ${lotsText(order.volume)} lots, above the ${lotsText(settings.max_lot_size)} lot limit.`,
    });
  }

  if (on(settings.max_trade_risk)) {
    const limitMinor = minor((context.equity * settings.max_trade_risk) / 100);
    if (orderRiskMinor > limitMinor) {
      const riskPct =
        context.equity > 0 ? (fromMinor(orderRiskMinor, decimals) / context.equity) * 100 : Infinity;
      violations.push({
        rule: 'max_trade_risk',
        detail: `max_trade_risk: this trade risks ${pct(riskPct)} of equity (${money(orderRiskMinor)}), above the ${pct(settings.max_trade_risk)} limit.`,
      });
    }
  }

  const openCount = context.open_positions.length;
  if (on(settings.max_open_positions) && openCount + 1 > settings.max_open_positions) {
    violations.push({
      rule: 'max_open_positions',
      detail: `max_open_positions: ${openCount} position${openCount === 1 ? ' is' : 's are'} already open, the limit is ${settings.max_open_positions}.`,
    });
  }

  const symbol = order.symbol.trim().toUpperCase();
  const sameSymbol = context.open_positions.filter((p) => p.symbol.trim().toUpperCase() === symbol).length;
  if (on(settings.max_open_trades_same_symbol) && sameSymbol + 1 > settings.max_open_trades_same_symbol) {
    violations.push({
      rule: 'max_open_trades_same_symbol',
      detail: `max_open_trades_same_symbol: ${sameSymbol} ${symbol} trade${sameSymbol === 1 ? ' is' : 's are'} already open, the limit is ${settings.max_open_trades_same_symbol}.`,
    });
  }

  const realisedMinor =
    context.realised_today != null
      ? minor(context.realised_today)
      : sumMinor(context.closed_today.map((t) => minor(t.profit_loss)));
  if (on(settings.max_daily_loss)) {
    const startMinor =
      context.day_start_balance != null
        ? minor(context.day_start_balance)
        : minor(context.balance) - realisedMinor;
    const limitMinor = minor((fromMinor(startMinor, decimals) * settings.max_daily_loss) / 100);
    const realisedLossMinor = Math.max(0, -realisedMinor);
    const openRiskMinor = sumMinor(context.open_positions.map((p) => Math.max(0, minor(p.open_risk))));
    const totalMinor = sumMinor([realisedLossMinor, openRiskMinor, orderRiskMinor]);
    if (totalMinor > limitMinor) {
      violations.push({
        rule: 'max_daily_loss',
        detail:
          `max_daily_loss: realised loss today ${money(realisedLossMinor)} + open risk ${money(openRiskMinor)} + this trade ${money(orderRiskMinor)} = ${money(totalMinor)}, ` +
          `above the ${pct(settings.max_daily_loss)} limit of ${money(limitMinor)} (of ${money(startMinor)} balance at the start of the day).`,
      });
    }
  }

  const cooldownOn = settings.enforce_cooldowns === true || settings.enforce_cooldowns === 1;
  if (cooldownOn && on(settings.consecutive_loss_limit) && settings.cooldown_period) {
    const cooldownSeconds = parseCooldown(settings.cooldown_period);
    if (cooldownSeconds === null) {
      throw new RangeError(`cooldown_period must be HH:MM:SS, got "${settings.cooldown_period}".`);
    }
    const closes = context.closed_today
      .map((t) => ({ pl: minor(t.profit_loss), at: toEpochMs(t.closed_at, 'closed_at') }))
      .sort((a, b) => a.at - b.at);
    let streak = 0;
    for (let i = closes.length - 1; i >= 0 && (closes[i]?.pl ?? 0) < 0; i--) streak++;
    const lastLoss = closes[closes.length - 1];
    if (streak >= settings.consecutive_loss_limit && lastLoss) {
      const until = lastLoss.at + cooldownSeconds * 1000;
      const now = toEpochMs(context.now, 'now');
      if (now < until) {
        violations.push({
          rule: 'cooldown',
          detail:
            `cooldown: ${streak} consecutive losing trades (limit ${settings.consecutive_loss_limit}); ` +
            `no new trade until ${new Date(until).toISOString().slice(0, 19)}Z, ${formatDuration((until - now) / 1000)} from now (cooldown_period ${settings.cooldown_period}).`,
        });
      }
    }
  }

  const first = violations[0];
  if (!first) return { allowed: true };
  return { allowed: false, rule: first.rule, detail: first.detail, violations };
}
