import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { SimMarket } from './brokers/sim/market-types';

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
  WEB_DIST: z.string().optional(),
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
  /** Folder of the built web app; unset or missing means the API runs alone. */
  webDist: string | undefined;
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
  /** Where log lines go instead of stdout (tests capture them). */
  logStream?: { write(line: string): void };
  /** Login attempts allowed per IP and username in one minute. */
  loginAttemptsPerMinute: number;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
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
  mkdirSync(dataDir, { recursive: true });
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
    webDist: e.WEB_DIST,
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
    loginAttemptsPerMinute: 10,
    accessTokenTtlSeconds: 60 * 60,
    refreshTokenTtlSeconds: 7 * 24 * 60 * 60,
    ...overrides,
  };
}
