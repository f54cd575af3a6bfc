import type { AppContext } from '../../context';
import { registerJobKind } from '../../jobs';
import { nowIso } from '../../lib/ids';
import { candleRepo } from '../../market/candle-repo';
import { fetchM1, sourceNow } from './analysis.candles';
import { instrumentsRepo, type InstrumentRow } from './instruments.repo';

export const DOWNLOAD_JOB = 'analysis.instrument-download';

const DAY = 86_400_000;
const MINUTE = 60_000;

interface Downloaded {
  /** Bars read; null for imports, which are already in the store. */
  bars: number | null;
  from: string;
  to: string;
}

/** The span to fetch (the initial history, or what came since the last download) and fetch it. */
async function download(
  ctx: AppContext,
  row: InstrumentRow,
  progress: (percent: number) => Promise<void>,
): Promise<Downloaded> {
  if (row.source === 'csv') {
    const span = await candleRepo(ctx.db).span({
      source: `csv:${row.user_id}`,
      userId: row.user_id,
      symbol: row.symbol,
      timeframe: 'M1',
    });
    if (!span) throw new Error(`No imported M1 candles for ${row.symbol}: import a CSV file first.`);
    return { bars: null, from: new Date(span.from).toISOString(), to: new Date(span.to).toISOString() };
  }
  const toMs = Math.floor(sourceNow(ctx, row) / MINUTE) * MINUTE;
  const fromMs = row.history_to ? Date.parse(row.history_to) : toMs - ctx.config.analysisHistoryDays * DAY;
  const series = await fetchM1(ctx, row, fromMs, toMs, (f) => progress(Math.round(f * 99)));
  if (!row.history_to && series.time.length === 0) {
    throw new Error(
      `The source has no M1 history for ${row.symbol} in the last ${ctx.config.analysisHistoryDays} days.`,
    );
  }
  return {
    bars: series.time.length,
    from: row.history_from ?? new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
  };
}

/**
 * Downloads an instrument's M1 history into the candle store: the initial `ANALYSIS_HISTORY_DAYS`
 * days up to the source's clock, or on refresh what came since; for imports, takes the span imported.
 * The instrument's data_status follows (AVAILABLE, or ERROR with the reason); the job succeeds or
 * fails the same way.
 */
registerJobKind<{ instrumentId: string }, Downloaded>(DOWNLOAD_JOB, async ({ job, ctx, progress }) => {
  const repo = instrumentsRepo(ctx.db);
  const row = await repo.byId(job.userId, job.payload.instrumentId);
  if (!row) throw new Error('The instrument was removed.');
  try {
    await progress('DOWNLOADING', 0);
    const done = await download(ctx, row, (pct) => progress('DOWNLOADING', pct));
    await repo.update(row.user_id, row.id, {
      history_from: done.from,
      history_to: done.to,
      data_status: 'AVAILABLE',
      last_updated: nowIso(),
      error: null,
    });
    return done;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    await repo.update(row.user_id, row.id, { data_status: 'ERROR', error: reason });
    throw err;
  }
});
