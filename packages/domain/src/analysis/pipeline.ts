/**
 * The steps of an analysis job after the M1 bars are read: resample to the target timeframe,
 * compute the indicators the analysis needs, run it. Separate steps so that a job can report each
 * stage; the benchmark runs the same steps.
 */
import type { CandleSeries } from '../candles/series';
import { resample } from '../candles/resample';
import type { CandleTimeframe } from '../candles/timeframes';
import { atr } from '../indicators/atr';
import { vwap } from '../indicators/vwap';
import { atrScenario, type AtrScenarioResult } from './atr-scenario';
import { DEFAULT_SESSIONS, type SessionWindow } from './sessions';
import { trendContinuation, type ContinuationResult } from './trend-continuation';
import { vwapConditional, type VwapConditionalResult } from './vwap-conditional';

export type AnalysisKind = 'TREND_CONTINUATION' | 'VWAP_CONDITIONAL' | 'ATR_SCENARIO';

export const ANALYSIS_ATR_PERIOD = 14;

export interface AnalysisIndicators {
  atr: Float64Array;
  /** Daily VWAP of hlc3 from 00:00 UTC; only VWAP_CONDITIONAL needs it. */
  vwap?: Float64Array;
}

export type AnalysisOutcome =
  | { type: 'TREND_CONTINUATION'; result: ContinuationResult }
  | { type: 'VWAP_CONDITIONAL'; result: VwapConditionalResult }
  | { type: 'ATR_SCENARIO'; result: AtrScenarioResult };

/** M1 bars → the target timeframe (M1 itself is used as it is). */
export function resampleForAnalysis(m1: CandleSeries, timeframe: CandleTimeframe): CandleSeries {
  return timeframe === 'M1' ? m1 : resample(m1, 'M1', timeframe);
}

export function analysisIndicators(bars: CandleSeries, type: AnalysisKind): AnalysisIndicators {
  const a = atr(bars, ANALYSIS_ATR_PERIOD);
  return type === 'VWAP_CONDITIONAL'
    ? { atr: a, vwap: vwap(bars, { anchor: 'day', source: 'hlc3' }).vwap }
    : { atr: a };
}

export function runAnalysis(
  bars: CandleSeries,
  type: AnalysisKind,
  indicators: AnalysisIndicators,
  sessions: readonly SessionWindow[] = DEFAULT_SESSIONS,
): AnalysisOutcome {
  switch (type) {
    case 'TREND_CONTINUATION':
      return { type, result: trendContinuation(bars, indicators.atr, sessions) };
    case 'VWAP_CONDITIONAL':
      return {
        type,
        result: vwapConditional(
          bars,
          indicators.vwap ?? analysisIndicators(bars, type).vwap!,
          indicators.atr,
          sessions,
        ),
      };
    case 'ATR_SCENARIO':
      return { type, result: atrScenario(bars, indicators.atr, { sessions }) };
  }
}
