import type { ChartTheme, IndicatorSettings, SnapshotTimeframe } from '@tradedesk/contract';
import { brokerRegistry } from '../../brokers/registry';
import type { TradingAccountsTable } from '../../db/schema';
import { buildChartModel } from '../../charts/chart-plan';
import { DEFAULT_SIZE, type TradeLevel } from '../../charts/model';
import { svgToPng } from '../../charts/png';
import { renderChartSvg } from '../../charts/render-svg';
import type { AppContext } from '../../context';
import { resolveSymbol } from '../trades/indicator';
import { barMs, snapshotCandles } from './snapshot-candles';

/**
 * Bars drawn per timeframe, and bars read before them so the indicators have settled. Weekly and
 * monthly charts read less: their bars are built from years of daily candles, slow to fetch the first
 * time, and a long EMA on them matters less than on intraday charts.
 */
const VISIBLE: Partial<Record<SnapshotTimeframe, number>> = { '1W': 78, '1M': 48 };
const DEFAULT_VISIBLE = 120;
const WARM_UP: Partial<Record<SnapshotTimeframe, number>> = { '1W': 60, '1M': 40 };
const DEFAULT_WARM_UP = 150;

export interface SnapshotSpec {
  account: TradingAccountsTable;
  symbol: string;
  timeframe: SnapshotTimeframe;
  settings: IndicatorSettings;
  templateName: string;
  theme: ChartTheme;
  /** The chart ends here (the trade's time plus some bars, or now). */
  endMs: number;
  levels?: TradeLevel[];
  markerTime?: number;
}

/** One chart as PNG, drawn from the account's candles with the template's indicators. */
export async function renderSnapshot(ctx: AppContext, spec: SnapshotSpec): Promise<Buffer> {
  // The broker names the symbol and its digits; the candle store serves its bars.
  const info = await brokerRegistry(ctx).use(spec.account, (adapter) => resolveSymbol(adapter, spec.symbol));
  const visible = VISIBLE[spec.timeframe] ?? DEFAULT_VISIBLE;
  const candles = await snapshotCandles(ctx, {
    userId: spec.account.user_id,
    accountId: spec.account.id,
    symbol: info.symbol,
    timeframe: spec.timeframe,
    endMs: spec.endMs,
    bars: visible + (WARM_UP[spec.timeframe] ?? DEFAULT_WARM_UP),
  });
  const model = buildChartModel({
    symbol: info.symbol,
    timeframe: spec.timeframe,
    subtitle: spec.templateName,
    digits: info.digits,
    candles,
    settings: spec.settings,
    visibleBars: visible,
    ...(spec.levels ? { levels: spec.levels } : {}),
    ...(spec.markerTime !== undefined ? { markerTime: spec.markerTime } : {}),
  });
  return svgToPng(renderChartSvg(model, { ...DEFAULT_SIZE, theme: spec.theme }));
}

/** Now for an account's market: the simulator's clock for a SIM account (it may replay a past moment), else the real one. */
export function marketNow(ctx: AppContext, account: TradingAccountsTable): number {
  return account.platform === 'SIM' ? brokerRegistry(ctx).sim.now() : Date.now();
}

/**
 * Where a trade's chart ends: a third of the visible bars after the trade's time, so the entry sits
 * about two thirds across, but never past now.
 */
export function chartEnd(timeframe: SnapshotTimeframe, anchorMs: number, nowMs: number): number {
  const visible = VISIBLE[timeframe] ?? DEFAULT_VISIBLE;
  return Math.min(nowMs, anchorMs + Math.round(visible / 3) * barMs(timeframe));
}
