import { z } from 'zod';
import { text } from './common';
import { openPosition } from './trades';

/**
 * Bot live runs: a bot version trading an account through the trades service (spec: POST
 * /bots/live-runs/start/ returns an id shown in an alert; the rest is issue 12).
 */
export const LIVE_RUN_MESSAGES = {
  /** The spec's web text when the start call fails (section 8). */
  startFailed: 'Failed to start live run. Please try again.',
  runNotFound: 'Live run not found.',
  versionNotFound: 'Bot version not found.',
  confirmRealAccount:
    'This account trades real money on a live broker (MT5 or cTrader): send confirm_real_account: true to start a live run on it.',
  alreadyRunning: 'This bot version already has a live run on this account; stop it before starting another.',
  timeframe: 'Live runs trade M1, M3, M5, M15, M30, H1, H2, H4 or D1 bars.',
  symbols: 'A live run trades 1 to 5 symbols.',
  notRunning: 'This live run is not running.',
} as const;

export const LIVE_RUN_STATUSES = ['STARTING', 'RUNNING', 'STOPPING', 'STOPPED', 'FAILED'] as const;
export const liveRunStatus = z.enum(LIVE_RUN_STATUSES);
export type LiveRunStatus = z.infer<typeof liveRunStatus>;

/** Timeframes a live run can trade: their bars open at fixed multiples of their length from the epoch. */
export const LIVE_TIMEFRAMES = ['M1', 'M3', 'M5', 'M15', 'M30', 'H1', 'H2', 'H4', 'D1'] as const;
export type LiveTimeframe = (typeof LIVE_TIMEFRAMES)[number];

/**
 * POST /api/bots/live-runs/start/. Symbol(s) and timeframe come from the version's params
 * (`symbol` or `symbols`, `timeframe`; EURUSD and H1 when absent) unless given here.
 */
export const liveRunStart = z.object({
  bot_version_id: text().min(1).max(64),
  account_id: text().min(1).max(64).nullish(),
  symbols: z.array(text().min(1).max(40)).min(1).max(5).nullish(),
  timeframe: z.enum(LIVE_TIMEFRAMES).nullish(),
  confirm_real_account: z.boolean().nullish(),
});
export type LiveRunStart = z.infer<typeof liveRunStart>;

export const liveRunStartResponse = z.object({ id: z.string() });

export const liveRunStop = z.object({ close_positions: z.boolean().nullish() }).nullish();

/** One trade the run placed (open or closed), in the account currency. */
export const liveRunTrade = z.object({
  id: z.string(),
  symbol: z.string(),
  direction: z.enum(['BUY', 'SELL']),
  lot_size: z.number(),
  entry_price: z.number().nullable(),
  status: z.string(),
  profit_loss: z.number().nullable(),
  reason: z.string(),
  bar_time: z.string(),
  created_at: z.string(),
  closed_at: z.string().nullable(),
});
export type LiveRunTrade = z.infer<typeof liveRunTrade>;

export const liveRun = z.object({
  id: z.string(),
  bot_id: z.string(),
  bot_name: z.string(),
  bot_version_id: z.string(),
  account_id: z.string(),
  account_name: z.string(),
  account_platform: z.string(),
  symbols: z.array(z.string()),
  timeframe: z.string(),
  status: liveRunStatus,
  created_at: z.string(),
  started_at: z.string().nullable(),
  stopped_at: z.string().nullable(),
  last_heartbeat: z.string().nullable(),
  /** Open time of the newest closed bar the run has dealt with (at start: the one closed before it). */
  last_bar_at: z.string().nullable(),
  /** Why the run failed (sandbox crash, limits, broker down). */
  error_message: z.string().nullable(),
  /** Why the run stopped (user, kill switch, daily-loss rule). */
  stop_reason: z.string().nullable(),
  /** Orders the strategy asked for that reached the broker, and those the risk rules refused. */
  orders: z.number().int(),
  refused_orders: z.number().int(),
});
export type LiveRun = z.infer<typeof liveRun>;

export const liveRunDetail = liveRun.extend({
  trades: z.array(liveRunTrade),
  open_positions: z.array(openPosition),
  /** Realised P/L of the run's closed trades plus the open positions' current P/L (account currency). */
  profit_loss: z.number(),
  realised_pl: z.number(),
  /** null when the broker could not be asked for the open positions. */
  open_pl: z.number().nullable(),
  currency: z.string().nullable(),
});
export type LiveRunDetail = z.infer<typeof liveRunDetail>;

export const liveRunListQuery = z.object({ bot_version_id: text().max(64).optional() });

export const liveRunLogLine = z.object({
  seq: z.number().int(),
  time: z.string(),
  level: z.enum(['info', 'warn', 'error']),
  message: z.string(),
});
export type LiveRunLogLine = z.infer<typeof liveRunLogLine>;

export const liveRunLogsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

export const stopAllResponse = z.object({ stopped: z.number().int() });

/** GET /api/bots/live-runs/positions/?account_id=: the account's open trades placed by live runs. */
export const botPositionsQuery = z.object({ account_id: text().min(1).max(64) });
export const botPosition = z.object({ trade_id: z.string(), live_run_id: z.string(), bot_name: z.string() });
export type BotPosition = z.infer<typeof botPosition>;

/** Messages of the socket /ws/live-runs/{id}: the last lines, then each new line and status change. */
export const liveRunSocketMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('log'), line: liveRunLogLine }),
  z.object({ type: z.literal('status'), status: liveRunStatus }),
]);
export type LiveRunSocketMessage = z.infer<typeof liveRunSocketMessage>;
