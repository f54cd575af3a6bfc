import type { AnalysisJobStatus, AnalysisType } from '@tradedesk/contract';

/** Spec section 8 (Analysis, fallbacks) word for word. */
export const ANALYSIS_TEXT = {
  loadInstrumentsFailed: 'Failed to load instruments.',
  loadJobsFailed: 'Failed to load submitted jobs.',
  submissionFailed: (detail: string) => `Submission failed: ${detail}`,
  addInstrumentFailed: (detail: string) => `Failed to add instrument: ${detail}`,
  refreshAfterSubmitFailed: 'Job submitted, but failed to refresh job list.',
  updateStatusFailed: 'Failed to update status',
  loadJobFailed: 'Failed to load job details.',
  jobNotFound: 'Job Not Found.',
  dataNotReady: 'Data Not Ready',
  unsupportedComponent: 'Unsupported component type',
  tableNotAvailable: 'Table data not available.',
  keyValuesNotAvailable: 'Key-value data not available.',
  imageNotAvailable: 'Image not available.',
  // Fallbacks of the API calls, when the server says nothing.
  fetchInstruments: 'Failed to fetch instruments',
  addInstrument: 'Failed to add instrument',
  submitJob: 'Failed to submit analysis job',
  fetchJobs: 'Failed to fetch analysis jobs',
  fetchStatus: 'Failed to fetch job status',
  fetchResults: 'Failed to fetch job results',
} as const;

export const STATUS_LABEL: Record<AnalysisJobStatus | 'UNKNOWN', string> = {
  PENDING: 'Pending',
  FETCHING_DATA: 'Fetching Data',
  RESAMPLING_DATA: 'Resampling Data',
  CALCULATING_INDICATORS: 'Calculating Indicators',
  RUNNING_ANALYSIS: 'Running Analysis',
  COMPLETED_SUCCESS: 'Completed Successfully',
  COMPLETED_FAIL: 'Failed',
  UNKNOWN: 'UNKNOWN',
};

export const STATUS_COLOR: Record<AnalysisJobStatus | 'UNKNOWN', string> = {
  PENDING: 'gray',
  FETCHING_DATA: 'blue',
  RESAMPLING_DATA: 'blue',
  CALCULATING_INDICATORS: 'blue',
  RUNNING_ANALYSIS: 'blue',
  COMPLETED_SUCCESS: 'teal',
  COMPLETED_FAIL: 'red',
  UNKNOWN: 'yellow',
};

export const TYPE_LABEL: Record<AnalysisType, string> = {
  TREND_CONTINUATION: 'Trend Continuation',
  VWAP_CONDITIONAL: 'VWAP Conditional',
  ATR_SCENARIO: 'ATR Scenario',
};

export const isFinished = (s: string) => s === 'COMPLETED_SUCCESS' || s === 'COMPLETED_FAIL';

/** Spec section 9: ids are shown shortened to 8 characters. */
export const shortId = (id: string) => id.slice(0, 8);

/** Spec section 9 polling figures. */
export const POLL = {
  jobsMs: 5000,
  jobMs: 3000,
  instrumentsFirstMs: 2000,
  instrumentsEveryMs: 10_000,
  instrumentsMoreTimes: 5,
} as const;
