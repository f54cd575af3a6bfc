/**
 * Per-request cost: `GET /api/accounts/me/` (bearer token verified, the user read from SQLite, the
 * answer validated and serialized) against a bare Fastify "hello" on the same machine, measured side
 * by side in one run, so the machine's load is the same for both. Target: /api/accounts/me/ at
 * ≥ 15 % of the bare ceiling.
 * Run: `npm run bench request-cost` (about 25 s).
 *
 * Both servers run in one child process (the real app from `buildApp` on one port, a bare Fastify
 * on another), so autocannon's own CPU is not charged to them; they are loaded one after the other.
 * Besides requests per second, the child's CPU time per request is printed for each: on a loaded
 * machine throughput depends on what else runs, CPU per request much less.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { exitWithParent, serverClock, spawnServer } from './server-process';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { usersService } from '../apps/server/src/modules/users/users.service';

const SECONDS = 8;
const CONNECTIONS = 10;

interface Ready {
  appPort: number;
  barePort: number;
  token: string;
}

async function runServer(): Promise<void> {
  exitWithParent();
  const dataDir = mkdtempSync(path.join(process.env.BENCH_DATA_DIR ?? tmpdir(), 'tradedesk-bench-'));
  const config = loadConfig(
    {},
    {
      dataDir,
      logLevel: (process.env.BENCH_LOG_LEVEL ?? 'info') as 'info',
      webDist: undefined,
      simNow: serverClock(),
    },
  );
  const { app, ctx } = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const user = await usersService(ctx).create('bench', 'bench-password-123', false);
  const { access } = await ctx.tokens.issue(user);
  const bare = Fastify();
  bare.get('/hello', async () => ({ hello: 'world' }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const portOf = (s: typeof app.server) => {
    const a = s.address();
    return typeof a === 'object' && a ? a.port : 0;
  };
  process.on('message', (m: string) => {
    if (m === 'cpu') {
      const u = process.cpuUsage();
      process.send!(u.user + u.system);
    }
    if (m === 'exit')
      void Promise.all([app.close(), bare.close()]).then(() => {
        rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      });
  });
  const ready: Ready = { appPort: portOf(app.server), barePort: portOf(bare.server), token: access };
  process.send!(ready);
}

type Child = ReturnType<typeof spawnServer>;

/** Requests per second and the server's CPU microseconds per request. */
async function load(
  server: Child,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ rps: number; cpuUs: number }> {
  // A short warm-up so the JIT and the statement cache are settled before the measured run.
  await autocannon({ url, connections: CONNECTIONS, duration: 1, headers });
  server.child.send('cpu');
  const cpu0 = await server.fromChild<number>();
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  server.child.send('cpu');
  const cpu1 = await server.fromChild<number>();
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  const rps = r['2xx'] / r.duration;
  const cpuUs = (cpu1 - cpu0) / r['2xx'];
  console.log(
    `${url}: ${rps.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, server CPU ${cpuUs.toFixed(0)} µs/request`,
  );
  return { rps, cpuUs };
}

async function runBench(): Promise<void> {
  const server = spawnServer(import.meta.url);
  const { fromChild, stop } = server;
  const ready = await fromChild<Ready>();
  const me = `http://127.0.0.1:${ready.appPort}/api/accounts/me/`;
  const check = await fetch(me, { headers: { authorization: `Bearer ${ready.token}` } });
  if (check.status !== 200) throw new Error(`GET /api/accounts/me/ answered ${check.status}`);
  const bare = await load(server, `http://127.0.0.1:${ready.barePort}/hello`);
  const app = await load(server, me, { authorization: `Bearer ${ready.token}` });
  await stop();
  const share = (app.rps / bare.rps) * 100;
  const cpuShare = (bare.cpuUs / app.cpuUs) * 100;
  console.log(
    `GET /api/accounts/me/ runs at ${share.toFixed(1)} % of the bare Fastify hello by throughput, ` +
      `${cpuShare.toFixed(1)} % by server CPU per request (target >= 15 %)`,
  );
  process.exit(share >= 15 && cpuShare >= 15 ? 0 : 1);
}

if (process.argv[2] === 'server') await runServer();
else await runBench();
