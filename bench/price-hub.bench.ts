/**
 * Price hub benchmark: 1,000 WebSocket clients (100 symbols x 10 clients) on one server, the simulated
 * market producing 4 ticks per second per symbol. Reports tick-to-client latency (p50/p99) and the
 * server's CPU. Run: `npx tsx bench/price-hub.bench.ts` (about 20 s).
 *
 * The server runs in a child process, so that its CPU is measured apart from the 1,000 clients.
 * The simulator has 13 symbols; the 100 used here are synthetic symbols derived from them
 * (EURUSD.b1, GBPUSD.b1, ...), each with its own 250 ms tick timer and a time-shifted price path.
 * The sim clock is shifted to a Wednesday morning so that FX ticks whatever day the bench runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { serverClock, spawnServer } from './server-process';
import { buildApp } from '../apps/server/src/app';
import { createSimMarket } from '../apps/server/src/brokers/sim/market';
import type { SimMarket, SimSymbolSpec } from '../apps/server/src/brokers/sim/market-types';
import type { Quote } from '../apps/server/src/brokers/types';
import { loadConfig } from '../apps/server/src/config';
import { priceHub } from '../apps/server/src/market/price-hub';
import { usersService } from '../apps/server/src/modules/users/users.service';

const SYMBOLS = 100;
const CLIENTS_PER_SYMBOL = 10;
const TICK_MS = 250;
const WARMUP_MS = 3000;
const MEASURE_MS = 12_000;

interface Ready {
  port: number;
  token: string;
  account: string;
  symbols: string[];
}
interface CpuReport {
  cpuPercent: number;
  topics: number;
  watchers: number;
  dropped: number;
}

/** The real simulator plus synthetic symbols derived from its own, each ticking on its own timer. */
function syntheticMarket(inner: SimMarket, count: number, now: () => number, tickMs: number) {
  const bases = inner.specs().map((s) => s.symbol);
  const derived = new Map<string, { base: string; shiftMs: number }>();
  for (let i = 0; i < count; i++) {
    const base = bases[i % bases.length]!;
    derived.set(`${base}.B${Math.floor(i / bases.length) + 1}`, { base, shiftMs: (i + 1) * 60_000 });
  }
  const resolve = (symbol: string) => derived.get(symbol.toUpperCase());
  const quoteAt = (symbol: string, t: number): Quote => {
    const d = resolve(symbol);
    if (!d) return inner.quoteAt(symbol, t);
    return { ...inner.quoteAt(d.base, t - d.shiftMs), symbol: symbol.toUpperCase(), time: t };
  };
  const specOf = (symbol: string): SimSymbolSpec | undefined => {
    const d = resolve(symbol);
    if (!d) return inner.spec(symbol);
    const s = inner.spec(d.base);
    return s && { ...s, symbol: symbol.toUpperCase(), description: `${s.description} (synthetic)` };
  };
  const feeds = new Map<string, { timer: NodeJS.Timeout; listeners: Set<(q: Quote) => void> }>();
  const market: SimMarket = {
    seed: inner.seed,
    specs: () => [...inner.specs(), ...[...derived.keys()].map((s) => specOf(s)!)],
    spec: specOf,
    quoteAt,
    candles: (s, tf, a, b, n) => inner.candles(resolve(s)?.base ?? s, tf, a, b, n),
    convert: (amt, f, t, at) => inner.convert(amt, f, t, at),
    isOpen: (s, t) => inner.isOpen(resolve(s)?.base ?? s, t),
    session: (s, t) => inner.session(resolve(s)?.base ?? s, t),
    subscribe(symbol, onQuote) {
      if (!resolve(symbol)) return inner.subscribe(symbol, onQuote);
      const key = symbol.toUpperCase();
      let feed = feeds.get(key);
      if (!feed) {
        const listeners = new Set<(q: Quote) => void>();
        const timer = setInterval(() => {
          const q = quoteAt(key, now());
          for (const l of listeners) l(q);
        }, tickMs);
        feed = { timer, listeners };
        feeds.set(key, feed);
      }
      const l = (q: Quote) => onQuote(q);
      feed.listeners.add(l);
      return () => {
        feed.listeners.delete(l);
        if (feed.listeners.size === 0) {
          clearInterval(feed.timer);
          feeds.delete(key);
        }
      };
    },
  };
  return { market, symbols: [...derived.keys()] };
}

async function runServer(): Promise<void> {
  const now = serverClock();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tradedesk-bench-'));
  const { market, symbols } = syntheticMarket(createSimMarket({ seed: 42, now }), SYMBOLS, now, TICK_MS);
  const config = loadConfig(
    {},
    { dataDir, logLevel: 'silent', webDist: undefined, simNow: now, simMarket: market },
  );
  const { app, ctx } = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const user = await usersService(ctx).create('bench', 'bench-password-123', false);
  const { access } = await ctx.tokens.issue(user);
  const account = await ctx.db
    .selectFrom('trading_accounts')
    .select('id')
    .where('user_id', '=', user.id)
    .executeTakeFirstOrThrow();
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  let cpuStart = process.cpuUsage();
  let wallStart = performance.now();
  process.on('message', (m: string) => {
    if (m === 'cpu-start') {
      cpuStart = process.cpuUsage();
      wallStart = performance.now();
    } else if (m === 'cpu-stop') {
      const used = process.cpuUsage(cpuStart);
      const wall = performance.now() - wallStart;
      const stats = priceHub(ctx).stats();
      const report: CpuReport = { cpuPercent: ((used.user + used.system) / 1000 / wall) * 100, ...stats };
      process.send!(report);
    } else if (m === 'exit') {
      void app.close().then(() => {
        rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      });
    }
  });
  const ready: Ready = { port, token: access, account: account.id, symbols };
  process.send!(ready);
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function runBench(): Promise<void> {
  const { child, offset, fromChild, stop } = spawnServer(import.meta.url);
  const ready = await fromChild<Ready>();

  let measuring = false;
  let latencies: number[] = [];
  let received = 0;
  const sockets: WebSocket[] = [];
  const t0 = performance.now();
  for (const symbol of ready.symbols.slice(0, SYMBOLS)) {
    const batch: Array<Promise<void>> = [];
    for (let i = 0; i < CLIENTS_PER_SYMBOL; i++) {
      const ws = new WebSocket(
        `ws://127.0.0.1:${ready.port}/ws/prices/${ready.account}/${symbol}?token=${ready.token}`,
      );
      ws.on('message', (data) => {
        const arrived = Date.now() - offset;
        received += 1;
        if (!measuring) return;
        const { time } = JSON.parse(String(data)) as { time: string };
        latencies.push(arrived - Date.parse(time));
      });
      ws.on('close', (code, reason) => {
        if (code !== 1000 && code !== 1005) console.error(`socket closed ${code} ${String(reason)}`);
      });
      sockets.push(ws);
      batch.push(
        new Promise((resolve, reject) => (ws.once('open', () => resolve()), ws.once('error', reject))),
      );
    }
    await Promise.all(batch);
  }
  const connectMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, WARMUP_MS));

  latencies = [];
  const receivedBefore = received;
  const clientCpu = process.cpuUsage();
  child.send('cpu-start');
  measuring = true;
  await new Promise((r) => setTimeout(r, MEASURE_MS));
  measuring = false;
  const clientUsed = process.cpuUsage(clientCpu);
  child.send('cpu-stop');
  const server = await fromChild<CpuReport>();
  const delivered = received - receivedBefore;

  for (const ws of sockets) ws.close(1000);
  await stop();

  const sorted = Float64Array.from(latencies).sort();
  const expected = SYMBOLS * CLIENTS_PER_SYMBOL * (1000 / TICK_MS) * (MEASURE_MS / 1000);
  const line = (k: string, v: string) => console.log(`${k.padEnd(38)} ${v}`);
  console.log('Price hub: 1,000 WebSocket clients, 100 symbols x 10 clients, 4 ticks/s per symbol');
  console.log(
    '(100 synthetic symbols derived from the 13 simulator symbols, e.g. EURUSD.B1; server in its own process)',
  );
  line('clients connected', `${sockets.length} in ${connectMs.toFixed(0)} ms`);
  line('upstream topics / watchers', `${server.topics} / ${server.watchers}`);
  line(
    'messages delivered (12 s window)',
    `${delivered} of ~${expected} expected (${((delivered / expected) * 100).toFixed(1)}%)`,
  );
  line('stale ticks dropped for slow clients', String(server.dropped));
  line('tick-to-client latency p50', `${percentile(sorted, 50).toFixed(0)} ms (times have 1 ms resolution)`);
  line('tick-to-client latency p99', `${percentile(sorted, 99).toFixed(1)} ms`);
  line('tick-to-client latency max', `${(sorted.at(-1) ?? NaN).toFixed(1)} ms`);
  line('server CPU (one core = 100%)', `${server.cpuPercent.toFixed(1)} %`);
  line(
    'client process CPU',
    `${(((clientUsed.user + clientUsed.system) / 1000 / MEASURE_MS) * 100).toFixed(1)} %`,
  );
  const p99 = percentile(sorted, 99);
  line('target p99 < 50 ms', p99 < 50 ? 'met' : 'NOT met');
  process.exit(p99 < 50 ? 0 : 1);
}

if (process.argv[2] === 'server') await runServer();
else await runBench();
