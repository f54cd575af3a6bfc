import { ANALYSIS_DISPLAY_NAMES, type ResultComponent } from '@tradedesk/contract';
import {
  DEFAULT_SESSIONS,
  analysisIndicators,
  resampleForAnalysis,
  runAnalysis,
  type AnalysisOutcome,
} from '@tradedesk/domain';
import { registerJobKind } from '../../jobs';
import { nowIso } from '../../lib/ids';
import { fetchM1 } from './analysis.candles';
import { instrumentsRepo } from './instruments.repo';
import { ANALYSIS_JOB, type AnalysisJobPayload, type AnalysisJobResult } from './analysis-job.types';
import { atrScenarioReport } from './report-atr';
import type { ReportContext } from './report-format';
import { trendContinuationReport } from './report-trend';
import { vwapConditionalReport } from './report-vwap';

function report(outcome: AnalysisOutcome, c: ReportContext): ResultComponent[] {
  switch (outcome.type) {
    case 'TREND_CONTINUATION':
      return trendContinuationReport(outcome.result, c);
    case 'VWAP_CONDITIONAL':
      return vwapConditionalReport(outcome.result, c);
    case 'ATR_SCENARIO':
      return atrScenarioReport(outcome.result, c);
  }
}

/** Stages and progress as the spec names them: fetch (to 50 %), resample, indicators, analysis. */
registerJobKind<AnalysisJobPayload, AnalysisJobResult>(ANALYSIS_JOB, async ({ job, ctx, progress }) => {
  const p = job.payload;
  await progress('FETCHING_DATA', 2);
  const instrument = await instrumentsRepo(ctx.db).byId(job.userId, p.instrumentId);
  if (!instrument) throw new Error(`The instrument ${p.instrument_symbol} was removed.`);
  const fromMs = Date.parse(p.start_date);
  const toMs = Date.parse(p.end_date);
  const m1 = await fetchM1(ctx, instrument, fromMs, toMs, (f) =>
    progress('FETCHING_DATA', 2 + Math.round(f * 48)),
  );
  if (m1.time.length === 0) {
    throw new Error(`No ${p.instrument_symbol} candles between ${p.start_date} and ${p.end_date}.`);
  }
  await progress('RESAMPLING_DATA', 55);
  const bars = resampleForAnalysis(m1, p.target_timeframe);
  await progress('CALCULATING_INDICATORS', 70);
  const indicators = analysisIndicators(bars, p.analysis_type);
  await progress('RUNNING_ANALYSIS', 85);
  const sessions = p.sessions ?? DEFAULT_SESSIONS;
  const outcome = runAnalysis(bars, p.analysis_type, indicators, sessions);
  const components = report(outcome, {
    symbol: p.instrument_symbol,
    timeframe: p.target_timeframe,
    from: p.start_date,
    to: p.end_date,
    bars: bars.time.length,
    sessions: [...sessions],
  });
  return {
    generated_at: nowIso(),
    analysis_display_name: ANALYSIS_DISPLAY_NAMES[p.analysis_type],
    result_data: { components },
  };
});
