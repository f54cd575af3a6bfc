/**
 * Trading benchmark: `POST /api/trades/execute/` on the simulated broker, and
 * `GET /api/trades/open-positions/{account}/` of an account holding 100 open positions.
 * Run: `npx tsx bench/trades.bench.ts` (about 30 s; `BENCH_DATA_DIR=/dev/shm` puts the database on
 * tmpfs to measure the server without the disk's flush latency). Targets: execute ≥ 200 trades/s with
 * p99 < 50 ms; open positions ≥ 2,000 req/s.
 *
 * The server (SQLite in a temporary DATA_DIR, the real app from `buildApp`) runs in a child
 * process so that autocannon's own CPU is not charged to it. Every execute is a full trade: the
 * lot size recomputed from equity and checked, risk rules evaluated (max_open_positions,
 * max_open_trades_same_symbol and max_daily_loss switched on, so the open trades are read),
 * an Idempotency-Key claimed and answered, the order filled by the sim matching engine and the
 * trade and its deal written. Traders are spread over 50 users (one SIM account each, 1,000,000 USD
 * at 1:500), as on a shared server. The sim clock is shifted to a Wednesday so FX is open on any day.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import autocannon from 'autocannon';
import { calculateLotSize } from '../packages/domain/src/index';
import { exitWithParent, serverClock, spawnServer } from './server-process';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { usersService } from '../apps/server/src/modules/users/users.service';

const USERS = 50;
const EXECUTE_SECONDS = 10;
const SATURATION_SECONDS = 5;
const POSITIONS_SECONDS = 8;
const RISK_PERCENT = 0.05;
const SL_DISTANCE = 0.002;

interface Trader {
  token: string;
  account: string;
}
interface Ready {
  port: number;
  traders: Trader[];
  /** Mean time of one SQLite commit (WAL, synchronous=FULL) in the data dir: the disk's flush cost. */
  commitMs: number;
  dataDir: string;
}

/** What one durable commit costs on this disk right now, measured apart from the app's database. */
function flushLatency(dir: string): number {
  const db = new DatabaseSync(path.join(dir, 'flush-probe.db'));
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; CREATE TABLE t (v INTEGER)');
  const insert = db.prepare('INSERT INTO t VALUES (?)');
  const started = performance.now();
  for (let i = 0; i < 100; i++) insert.run(i);
  const ms = (performance.now() - started) / 100;
  db.close();
  return ms;
}

async function runServer(): Promise<void> {
  exitWithParent();
  const now = serverClock();
  const dataDir = mkdtempSync(path.join(process.env.BENCH_DATA_DIR ?? tmpdir(), 'tradedesk-bench-'));
  const commitMs = flushLatency(dataDir);
  const config = loadConfig({}, { dataDir, logLevel: 'silent', webDist: undefined, simNow: now });
  const { app, ctx } = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const traders: Trader[] = [];
  for (let i = 0; i <= USERS; i++) {
    const user = await usersService(ctx).create(`bench${i}`, 'bench-password-123', false);
    const { access } = await ctx.tokens.issue(user);
    const res = await app.inject({
      method: 'POST',
      url: '/api/accounts/create/',
      headers: { authorization: `Bearer ${access}` },
      payload: { name: 'Bench', platform: 'SIM', balance: 1_000_000, leverage: 500 },
    });
    if (res.statusCode !== 201) throw new Error(`account create: ${res.statusCode} ${res.body}`);
    const account = res.json().id as string;
    // Every set-up call is checked: a refused risk-settings PUT would run the bench without rules.
    const rules = await app.inject({
      method: 'PUT',
      url: `/api/risk/settings/${account}/`,
      headers: { authorization: `Bearer ${access}` },
      payload: {
        max_daily_loss: 50,
        risk_percent: RISK_PERCENT,
        max_trade_risk: 1,
        max_open_positions: 1000,
        enforce_cooldowns: false,
        consecutive_loss_limit: 3,
        cooldown_period: '01:00:00',
        max_lot_size: null,
        max_open_trades_same_symbol: 1000,
      },
    });
    if (rules.statusCode !== 200) throw new Error(`risk settings: ${rules.statusCode} ${rules.body}`);
    traders.push({ token: access, account });
  }
  process.on('message', (m: string) => {
    if (m === 'exit') {
      void app.close().then(() => {
        rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      });
    }
  });
  const ready: Ready = { port, traders, commitMs, dataDir };
  process.send!(ready);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API answers of several shapes, read field by field
async function json(url: string, token: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(url, {
    ...init,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...(init.headers ?? {}),
    },
  });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * The lot size the Place a Trade modal would send for this account, one volume step below its figure:
 * the server places its own lot and accepts a client figure equal or up to one step smaller, and the
 * bench reuses each body for many trades while the equity drifts down by their costs.
 */
async function lotsFor(base: string, t: Trader): Promise<number> {
  const details = await json(`${base}/api/accounts/details/${t.account}`, t.token);
  const info = await json(`${base}/api/trades/symbol-info/${t.account}/EURUSD`, t.token);
  const lots = calculateLotSize({
    equity: details.equity,
    riskPercent: RISK_PERCENT,
    slDistance: SL_DISTANCE,
    contractSize: info.contract_size,
    quoteToAccountRate: 1,
    limits: info,
    accountCurrency: details.currency,
  }).volume;
  return Number((lots - info.volume_step).toFixed(2));
}

function report(name: string, r: autocannon.Result): { rps: number; p99: number } {
  const seconds = r.duration;
  const ok = r['2xx'];
  const rps = ok / seconds;
  console.log(
    `${name}: ${ok} ok in ${seconds.toFixed(1)} s = ${rps.toFixed(0)} req/s; latency p50 ${r.latency.p50} ms, ` +
      `p99 ${r.latency.p99} ms, max ${r.latency.max} ms; non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts}`,
  );
  return { rps, p99: r.latency.p99 };
}

async function runBench(): Promise<void> {
  const { offset, fromChild, stop } = spawnServer(import.meta.url);
  const ready = await fromChild<Ready>();
  const base = `http://127.0.0.1:${ready.port}`;
  console.log(
    `DATA_DIR ${ready.dataDir}: one SQLite commit (WAL, synchronous=FULL) takes ${ready.commitMs.toFixed(2)} ms`,
  );
  const [holder, ...traders] = ready.traders;
  const lots = await Promise.all(traders.map((t) => lotsFor(base, t)));
  const bodies = traders.map((t, i) =>
    JSON.stringify({
      account_id: t.account,
      symbol: 'EURUSD',
      lot_size: lots[i],
      direction: i % 2 ? 'SELL' : 'BUY',
      order_type: 'MARKET',
      risk_percent: RISK_PERCENT,
      stop_loss_distance: SL_DISTANCE,
      rr_ratio: 2,
      reason: 'bench',
      trader: 'bench',
      timeframe: '15M',
    }),
  );
  let seq = 0;

  // Warm-up: JIT, prepared statements, one position per account.
  for (let i = 0; i < traders.length; i++) {
    await json(`${base}/api/trades/execute/`, traders[i]!.token, { method: 'POST', body: bodies[i] });
  }

  const executeRun = (seconds: number, overallRate?: number) =>
    autocannon({
      url: `${base}/api/trades/execute/`,
      connections: 10,
      duration: seconds,
      ...(overallRate ? { overallRate } : {}),
      requests: [
        {
          method: 'POST',
          setupRequest: (req) => {
            const i = seq++ % traders.length;
            return {
              ...req,
              headers: {
                authorization: `Bearer ${traders[i]!.token}`,
                'content-type': 'application/json',
                'idempotency-key': `bench-${offset}-${seq}`,
              },
              body: bodies[i],
            };
          },
        },
      ],
    });
  // The target load first (200 trades/s offered, as traders would send them), then all it can take.
  const exec = await executeRun(EXECUTE_SECONDS, 200);
  const e = report('POST /api/trades/execute/ at 200/s offered', exec);
  const sat = await executeRun(SATURATION_SECONDS);
  report('POST /api/trades/execute/ saturated (10 connections)', sat);

  // 100 open positions on one account, then poll them.
  const holderBody = JSON.parse(bodies[0]!) as Record<string, unknown>;
  for (let i = 0; i < 100; i++) {
    await json(`${base}/api/trades/execute/`, holder!.token, {
      method: 'POST',
      body: JSON.stringify({
        ...holderBody,
        account_id: holder!.account,
        lot_size: await lotsFor(base, holder!),
      }),
    });
  }
  const list = await json(`${base}/api/trades/open-positions/${holder!.account}/`, holder!.token);
  if (list.open_positions.length !== 100)
    throw new Error(`expected 100 positions, got ${list.open_positions.length}`);
  const pos = await autocannon({
    url: `${base}/api/trades/open-positions/${holder!.account}/`,
    connections: 20,
    duration: POSITIONS_SECONDS,
    headers: { authorization: `Bearer ${holder!.token}` },
  });
  const p = report('GET /api/trades/open-positions/{account}/ (100 positions)', pos);

  await stop();
  const pass =
    e.rps >= 195 && e.p99 < 50 && p.rps >= 2000 && exec.non2xx === 0 && sat.non2xx === 0 && pos.non2xx === 0;
  console.log(
    `targets: execute sustains 200/s with p99 < 50 ms, open positions >= 2000/s: ${pass ? 'met' : 'NOT met'}`,
  );
  process.exit(pass ? 0 : 1);
}

if (process.argv[2] === 'server') await runServer();
else await runBench();
