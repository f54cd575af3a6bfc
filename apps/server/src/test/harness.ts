import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp, type BuiltApp } from '../app';
import { loadConfig, type AppConfig } from '../config';
import { usersService } from '../modules/users/users.service';
import { schemaUrl, withPgSchema } from './pg-schema';
import { auditDeclaredStatuses } from './status-audit';

export interface DbTarget {
  name: 'sqlite' | 'postgres';
  url?: string;
}

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (as .ci/run does when it answers). */
export const dbTargets: DbTarget[] = [
  { name: 'sqlite' },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: 'postgres' as const, url: process.env.TEST_DATABASE_URL }]
    : []),
];

/** Runs the same integration suite once per database target. */
export function describeEachDb(title: string, fn: (target: DbTarget) => void): void {
  for (const target of dbTargets) describe(`${title} [${target.name}]`, () => fn(target));
}

export interface Harness extends BuiltApp {
  config: AppConfig;
  dataDir: string;
  /** Creates a user through the real service and returns its access token. */
  user(
    username: string,
    opts?: { staff?: boolean; password?: string },
  ): Promise<{ id: string; token: string }>;
  request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string>; ip?: string },
  ): Promise<LightMyRequestResponse>;
  /** Closes the app; with `keepData` the same data dir and schema can be opened again (restart tests). */
  close(opts?: { keepData?: boolean }): Promise<void>;
  restart(): Promise<Harness>;
}

export async function createHarness(
  target: DbTarget,
  overrides: Partial<AppConfig> = {},
  reuse?: { dataDir: string; schema?: string },
): Promise<Harness> {
  const dataDir = reuse?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'tradedesk-test-'));
  let schema = reuse?.schema;
  let databaseUrl: string | undefined;
  if (target.name === 'postgres' && target.url) {
    if (!schema) {
      schema = `t_${randomBytes(6).toString('hex')}`;
      await withPgSchema(target.url, schema, 'create');
    }
    databaseUrl = schemaUrl(target.url, schema);
  }
  const config = loadConfig(
    {},
    { dataDir, databaseUrl, logLevel: 'silent', webDist: undefined, ...overrides },
  );
  const built = await buildApp(config);
  const undeclared = auditDeclaredStatuses(built.app);
  await built.app.ready();

  const h: Harness = {
    ...built,
    config,
    dataDir,
    async user(username, opts = {}) {
      const u = await usersService(built.ctx).create(
        username,
        opts.password ?? 'correct-horse-battery',
        opts.staff ?? false,
      );
      const { access } = await built.ctx.tokens.issue(u);
      return { id: u.id, token: access };
    },
    request(method, url, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      return built.app.inject({
        method,
        url,
        headers,
        remoteAddress: opts.ip ?? '127.0.0.1',
        ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
      });
    },
    async close(opts = {}) {
      await built.app.close();
      // Every answer the tests saw must be one the OpenAPI document declares for its route.
      if (undeclared.size) throw new Error(`Undeclared response statuses: ${[...undeclared].join(', ')}`);
      if (opts.keepData) return;
      if (target.name === 'postgres' && target.url && schema) await withPgSchema(target.url, schema, 'drop');
      rmSync(dataDir, { recursive: true, force: true });
    },
    async restart() {
      await h.close({ keepData: true });
      return createHarness(target, overrides, { dataDir, schema });
    },
  };
  return h;
}
