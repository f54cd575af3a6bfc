import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config';
import type { Db, Dialect } from './db';
import type { SecretBox } from './lib/secrets';
import type { TokenService } from './modules/auth/tokens';

/** What every module is built from: plain values, no container. */
export interface AppContext {
  config: AppConfig;
  db: Db;
  dialect: Dialect;
  tokens: TokenService;
  /** Encrypts broker passwords and tokens at rest. */
  secrets: SecretBox;
  log: FastifyBaseLogger;
  /** Work to finish before the process exits (jobs, broker connections, timers). */
  onShutdown(fn: () => Promise<void> | void): void;
  /** Hooks run after a user is created (e.g. the default simulated account). */
  onUserCreated(fn: (userId: string) => Promise<void>): void;
  userCreated(userId: string): Promise<void>;
}
