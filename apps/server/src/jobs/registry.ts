import type { JobExecutor, JobKindOptions } from './types';

export interface JobKind {
  kind: string;
  run: JobExecutor;
  maxAttempts: number;
}

/**
 * Job kinds are code, not state: one registry per process, filled when the feature modules are
 * imported, so the server and every `npm run worker` process know the same kinds.
 */
const kinds = new Map<string, JobKind>();

/** Declares how jobs of `kind` run. Call it at the top level of the feature's `*.jobs.ts`. */
export function registerJobKind<P, R>(
  kind: string,
  run: JobExecutor<P, R>,
  options: JobKindOptions = {},
): void {
  kinds.set(kind, { kind, run: run as JobExecutor, maxAttempts: options.maxAttempts ?? 3 });
}

export function jobKind(kind: string): JobKind | undefined {
  return kinds.get(kind);
}
