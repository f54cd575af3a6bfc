import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { SimMarket } from './brokers/sim/market-types';
import { newsConfig, newsEnv, type NewsConfig } from './news/news-config';

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined))
    .refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
      message: 'DATABASE_URL must be a postgres:// URL (leave it unset for SQLite)',
    }),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  SECRETS_KEY: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Set when a reverse proxy terminates TLS in front of the server: `true` (trust every hop), a hop
   * count, or a comma-separated list of proxy addresses/CIDRs. Client IPs (login limits) then come from
   * X-Forwarded-For, and HSTS is sent. Unset: the socket's address, no HSTS.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v): boolean | number | string => {
      const t = v?.trim() ?? '';
      if (t === '' || t === 'false') return false;
      if (t === 'true') return true;
      return /^\d+$/.test(t) ? Number(t) : t;
    }),
  /** Requests slower than this many milliseconds are logged at warn; faster ones only at debug. */
  SLOW_REQUEST_MS: z.coerce.number().int().min(0).default(1000),
  WEB_DIST: z.string().optional(),
  /** Serve the web build's source maps (`1`/`true`); off by default so the sources stay private. */
  SERVE_SOURCE_MAPS: z
    .string()
    .optional()
    .transform((v) => v === '1' || v?.toLowerCase() === 'true'),
  SIM_SEED: z.coerce.number().int().default(20240601),
  SIM_START: z
    .string()
    .optional()
    .refine((v) => !v || Number.isFinite(Date.parse(v)), {
      message: 'SIM_START must be an ISO 8601 instant, e.g. 2026-06-29T10:30:00Z',
    }),
  MT5_BRIDGE_URL: z
    .string()
    .optional()
    .transform((v) => (v && v.trim() !== '' ? v.trim().replace(/\/+$/, '') : undefined))
    .refine((v) => v === undefined || /^https?:\/\//.test(v), {
      message: 'MT5_BRIDGE_URL must be an http(s):// URL',
    }),
  MT5_BRIDGE_TOKEN: z.string().optional(),
  CTRADER_CLIENT_ID: z.string().optional(),
  CTRADER_CLIENT_SECRET: z.string().optional(),
  CTRADER_REDIRECT_URI: z.string().optional(),
  /** demo, live, or an explicit ws(s):// URL of the Open API JSON port (docs/ctrader.md). */
  CTRADER_HOST: z.string().default('demo'),
  CTRADER_AUTH_URL: z.string().default('https://id.ctrader.com/my/settings/openapi/grantingaccess/'),
  CTRADER_TOKEN_URL: z.string().default('https://openapi.ctrader.com/apps/token'),
  ...newsEnv,
  /** Jobs this process runs at once; 0 = it only enqueues (a web server beside `npm run worker`). */
  JOB_WORKERS: z.coerce.number().int().min(0).max(64).default(2),
  /** How long a worker's hold on a running job lasts without renewal (it renews every third). */
  JOB_LEASE_MS: z.coerce.number().int().min(100).default(30_000),
  /** Bot live runs: how long the broker may be unreachable before a run stops itself (seconds). */
  LIVE_RUN_BROKER_DOWN_S: z.coerce.number().int().min(1).default(300),
  /** Days of M1 history an analysis instrument downloads when added. */
  ANALYSIS_HISTORY_DAYS: z.coerce.number().int().min(1).max(3650).default(730),
});

export type Env = z.infer<typeof envSchema>;

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string;
  secretsKey: Buffer;
  logLevel: Env['LOG_LEVEL'];
  slowRequestMs: number;
  /** Fastify's trustProxy (TRUST_PROXY); anything but false also turns HSTS on. */
  trustProxy: boolean | number | string;
  /** Folder of the built web app; unset or missing means the API runs alone. */
  webDist: string | undefined;
  /** Whether the built web app's `.map` files are served. */
  serveSourceMaps: boolean;
  simSeed: number;
  /** Tests and benchmarks only: the simulated broker's clock and market; production derives both from simSeed and the real clock. */
  simNow?: () => number;
  simMarket?: SimMarket;
  /** Base URL of the MT5 bridge service (docs/mt5-bridge.md); unset means MT5 is not available. */
  mt5BridgeUrl: string | undefined;
  /** Optional shared secret the bridge expects in `X-Bridge-Token`. */
  mt5BridgeToken: string | undefined;
  /** cTrader Open API application (docs/ctrader.md); blank client id/secret/redirect means not configured. */
  ctrader: {
    clientId: string;
    clientSecret: string;
    redirectUri: string;
    host: string;
    authUrl: string;
    tokenUrl: string;
  };
  /** The job runner of this process (apps/server/src/jobs). */
  jobs: {
    workers: number;
    leaseMs: number;
    /** In-process runner: how often it looks for rows it was not told about (expired leases). */
    pollMs: number;
    /** pg-boss runner: how often it re-sends rows that wait without a live queue message. */
    sweepMs: number;
  };
  /** Days of M1 history an analysis instrument downloads when added (two years by default). */
  analysisHistoryDays: number;
  /** Bot live runs (modules/live-runs). */
  liveRuns: {
    /** Longest wait between two looks at the clock (bars are also awaited to their exact close). */
    pollMs: number;
    /** How often a running run writes its heartbeat and renews its lease. */
    heartbeatMs: number;
    /** A run whose lease is older than this is taken over by another server process. */
    leaseMs: number;
    /** The broker may be unreachable this long before the run stops itself. */
    brokerDownMs: number;
    /** Closed bars handed to the strategy at each bar (its indicators' history). */
    historyBars: number;
  };
  /** Where log lines go instead of stdout (tests capture them). */
  logStream?: { write(line: string): void };
  /** Login attempts allowed per IP and username in one minute. */
  loginAttemptsPerMinute: number;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** The news analyser's provider, time-out and limits (docs/news.md). */
  news: NewsConfig;
}

/** Reads a secret kept in DATA_DIR, creating it once (0600) when it does not exist yet. */
function persistedSecret(dataDir: string, file: string, bytes: number): Buffer {
  const p = path.join(dataDir, file);
  if (existsSync(p)) return Buffer.from(readFileSync(p, 'utf8').trim(), 'base64');
  const value = randomBytes(bytes);
  writeFileSync(p, value.toString('base64'), { mode: 0o600, flag: 'wx' });
  chmodSync(p, 0o600);
  return value;
}

/**
 * The simulated market replaying from `start`: it begins there when the server starts and runs in real
 * time. For demos of a chosen market moment, and for end-to-end tests that need a known price path.
 */
export function replayClock(start: number, boot = Date.now()): () => number {
  return () => start + (Date.now() - boot);
}

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<AppConfig> = {},
): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(overrides.dataDir ?? e.DATA_DIR);
  // The folder holds the database, keys and attachments: the server's user only (docs/security.md).
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  const jwtSecret =
    overrides.jwtSecret ?? e.JWT_SECRET ?? persistedSecret(dataDir, 'jwt-secret', 48).toString('base64');
  let secretsKey: Buffer;
  if (overrides.secretsKey) secretsKey = overrides.secretsKey;
  else if (e.SECRETS_KEY) {
    secretsKey = Buffer.from(e.SECRETS_KEY, 'base64');
    if (secretsKey.length !== 32)
      throw new Error('Invalid configuration:\n  SECRETS_KEY: must be 32 bytes, base64');
  } else secretsKey = persistedSecret(dataDir, 'secrets.key', 32);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    jwtSecret,
    secretsKey,
    logLevel: e.LOG_LEVEL,
    slowRequestMs: e.SLOW_REQUEST_MS,
    trustProxy: e.TRUST_PROXY,
    webDist: e.WEB_DIST,
    serveSourceMaps: e.SERVE_SOURCE_MAPS,
    simSeed: e.SIM_SEED,
    ...(e.SIM_START ? { simNow: replayClock(Date.parse(e.SIM_START)) } : {}),
    mt5BridgeUrl: e.MT5_BRIDGE_URL,
    mt5BridgeToken: e.MT5_BRIDGE_TOKEN || undefined,
    ctrader: {
      clientId: e.CTRADER_CLIENT_ID?.trim() ?? '',
      clientSecret: e.CTRADER_CLIENT_SECRET?.trim() ?? '',
      redirectUri: e.CTRADER_REDIRECT_URI?.trim() ?? '',
      host: e.CTRADER_HOST.trim(),
      authUrl: e.CTRADER_AUTH_URL.trim(),
      tokenUrl: e.CTRADER_TOKEN_URL.trim(),
    },
    jobs: {
      workers: e.JOB_WORKERS,
      leaseMs: e.JOB_LEASE_MS,
      pollMs: 2000,
      sweepMs: Math.max(1000, Math.min(15_000, e.JOB_LEASE_MS)),
    },
    analysisHistoryDays: e.ANALYSIS_HISTORY_DAYS,
    liveRuns: {
      pollMs: 1000,
      heartbeatMs: 5000,
      leaseMs: 30_000,
      brokerDownMs: e.LIVE_RUN_BROKER_DOWN_S * 1000,
      historyBars: 500,
    },
    loginAttemptsPerMinute: 10,
    accessTokenTtlSeconds: 15 * 60,
    refreshTokenTtlSeconds: 7 * 24 * 60 * 60,
    news: newsConfig(e),
    ...overrides,
  };
}
