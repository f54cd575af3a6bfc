import type { SnapshotTimeframe } from '@tradedesk/contract';
import { CHART_TIMEFRAMES, sliceSeries, TIMEFRAME_MS, type CandleSeries } from '@tradedesk/domain';
import type { AppContext } from '../../context';
import { candleStore } from '../../market/candle-store';

const DAY_MS = 86_400_000;
/** No snapshot looks further back than this, however few bars a market has. */
const EARLIEST_MS = Date.UTC(2000, 0, 1);

/** The nominal length of one bar of a snapshot timeframe (a month counts 31 days). */
export function barMs(tf: SnapshotTimeframe): number {
  const t = CHART_TIMEFRAMES[tf];
  return t === 'MN1' ? 31 * DAY_MS : TIMEFRAME_MS[t];
}

export interface SnapshotCandlesRequest {
  userId: string;
  accountId: string;
  symbol: string;
  timeframe: SnapshotTimeframe;
  /** The last bar is the one open at this instant. */
  endMs: number;
  bars: number;
}

/**
 * The last `bars` bars of an account's symbol up to `endMs`, from the candle store (which fetches and
 * keeps what it lacks, and resamples 3m, 2h, 1W and 1M). Closed markets leave gaps, so the window
 * widens until enough bars are found or the history runs out.
 */
export async function snapshotCandles(ctx: AppContext, req: SnapshotCandlesRequest): Promise<CandleSeries> {
  const timeframe = CHART_TIMEFRAMES[req.timeframe];
  let span = req.bars * barMs(req.timeframe) * 1.5 + 3 * DAY_MS;
  for (;;) {
    const fromMs = Math.max(EARLIEST_MS, req.endMs - span);
    const series = await candleStore(ctx).series({
      userId: req.userId,
      accountId: req.accountId,
      symbol: req.symbol,
      timeframe,
      fromMs,
      toMs: req.endMs + 1,
    });
    const n = series.time.length;
    if (n >= req.bars || fromMs === EARLIEST_MS || span > 8 * req.bars * barMs(req.timeframe))
      return sliceSeries(series, Math.max(0, n - req.bars), n);
    span *= 2;
  }
}
