/** Messages between the server and the strategy sandbox process (IPC, advanced serialization). */
import type { BacktestBars, BacktestResult, BacktestSettings, BacktestSymbol } from '@tradedesk/domain';

export interface SandboxBars extends BacktestBars {
  volume: Float64Array;
}

export interface RunRequest {
  type: 'run';
  code: string;
  paramsJson: string;
  bars: SandboxBars;
  symbol: BacktestSymbol;
  settings: BacktestSettings;
}

/** First message to a new sandbox: the interpreter snapshot to restore, when the server has one. */
export interface InitMessage {
  type: 'init';
  snapshot?: Uint8Array;
}

/** Live mode: loads the strategy once; the process then serves one `live-step` per closed bar. */
export interface LiveLoadRequest {
  type: 'live-load';
  code: string;
  paramsJson: string;
}

/** The run's position on `symbol` as the strategy sees it (`ctx.position`), side 0 when flat. */
export interface LivePosition {
  side: number;
  entryPrice: number;
  volume: number;
  sl: number;
  tp: number;
  entryIndex: number;
}

export interface LiveStepRequest {
  type: 'live-step';
  symbol: string;
  /** The closed bars up to the one just closed (the last). */
  bars: SandboxBars;
  position: LivePosition;
  balance: number;
}

export type LiveRequest = LiveLoadRequest | LiveStepRequest;

export type WorkerMessage =
  | { type: 'snapshot'; bytes: Uint8Array }
  | { type: 'live-loaded'; style: string; indicators: string[] }
  | {
      type: 'live-orders';
      orders: Float64Array;
      tags: Array<string | null>;
      /** The orders' targets side list (TARGET_FIELDS in the domain), one count per order. */
      targets: Float64Array;
      output: string;
      stepMs: number;
    }
  | { type: 'ready'; startupMs: number; isolation: SandboxIsolation }
  | { type: 'progress'; fraction: number }
  | { type: 'done'; result: BacktestResult; output: string; runMs: number; phases: RunPhases }
  | { type: 'failed'; message: string; output: string };

/** What the sandbox process reports about its own permissions (checked by the escape suite). */
export interface SandboxIsolation {
  permission: boolean;
  fsWrite: boolean;
  childProcess: boolean;
  worker: boolean;
  envKeys: number;
}

/** Where a run's time went, in ms. */
export interface RunPhases {
  loadMs: number;
  indicatorsMs: number;
  dataMs: number;
  /** The vectorised signals() call alone (0 for per-bar strategies). */
  signalsMs: number;
  strategyAndEngineMs: number;
  /** CPU time the sandbox process used for the run (user + system): the figure a loaded machine does not distort. */
  cpuMs: number;
}
