import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WEDNESDAY } from '../test/sim-clock';

/**
 * The server started as `npm start` starts it (npm → sh → node, one process group), stopped the way a
 * process manager stops it (SIGTERM to the whole group) while it is busy: trades being placed, price
 * WebSockets open, a history sync running, and its stdout pipe full because nobody reads it any more.
 * Each time it must be gone within 15 s, and the database must hold every acknowledged trade.
 */
const RUNS = Number(process.env.SHUTDOWN_RUNS ?? 20);
const LIMIT_MS = 15_000;
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outDir = path.join(serverDir, '.tmp', 'shutdown-dist');
const PORT = 18700 + (process.pid % 1000);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('shutdown as a process manager does it', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'tradedesk-shutdown-'));
  const dataDir = path.join(work, 'data');
  beforeAll(() => {
    const built = spawnSync(process.execPath, ['build.mjs', outDir], { cwd: serverDir, stdio: 'inherit' });
    expect(built.status).toBe(0);
    mkdirSync(dataDir);
    // A package whose start script is the real one: `npm start` → sh → node.
    writeFileSync(
      path.join(work, 'package.json'),
      JSON.stringify({ name: 'shutdown-probe', private: true, scripts: { start: `node ${outDir}/main.js` } }),
    );
  }, 60_000);
  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
    rmSync(outDir, { recursive: true, force: true });
  });

  /** Starts `npm start`, answers the node process's pid once it listens; then stops reading its output. */
  function start(): Promise<{ npm: ChildProcess; pid: number }> {
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: work,
      detached: true, // its own process group, npm leading it
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        SIM_START: new Date(WEDNESDAY).toISOString(),
        // Every request logged, so that the unread pipe fills up during the load.
        LOG_LEVEL: 'debug',
      },
    });
    return new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 30_000);
      npm.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      npm.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n').find((l) => l.includes('TradeDesk is serving'));
        if (!line) return;
        clearTimeout(timer);
        npm.stdout!.pause(); // nobody reads any more: the pipe fills, as when the reader has gone away
        resolve({ npm, pid: (JSON.parse(line) as { pid: number }).pid });
      });
    });
  }

  const base = `http://127.0.0.1:${PORT}`;
  const post = (url: string, token: string | undefined, body: unknown) =>
    fetch(base + url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });

  it(
    `exits within ${LIMIT_MS / 1000} s every time, with its data intact (${RUNS} runs)`,
    async () => {
      let token: string | undefined;
      let accountId = '';
      let acknowledged = 0;
      const exits: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const { npm, pid } = await start();
        const creds = { username: 'owner', password: 'owner-password-1' };
        if (!token) {
          const boot = await post('/api/users/bootstrap/', undefined, creds);
          expect(boot.status).toBe(201);
        }
        token = ((await (await post('/api/token/', undefined, creds)).json()) as { access: string }).access;
        if (!accountId) {
          const list = await fetch(`${base}/api/accounts/`, {
            headers: { authorization: `Bearer ${token}` },
          });
          accountId = ((await list.json()) as Array<{ id: string }>)[0]!.id;
        }

        // Load: price sockets, a history sync, and trades placed one after another until the end.
        const sockets = Array.from(
          { length: 5 },
          () => new WebSocket(`ws://127.0.0.1:${PORT}/ws/prices/${accountId}/EURUSD?token=${token}`),
        );
        for (const s of sockets) s.on('error', () => undefined);
        void post(`/api/history/accounts/${accountId}/sync/`, token, {}).catch(() => undefined);
        let stop = false;
        const trading = (async () => {
          while (!stop) {
            try {
              const res = await post('/api/trades/execute/', token, {
                account_id: accountId,
                symbol: 'EURUSD',
                lot_size: 0.01,
                direction: 'BUY',
                order_type: 'MARKET',
                // 0.15 % of the equity over 100 pips floors to the 0.01 lot sent for any equity from 6,667
                // to 13,333 USD, so every order is placed, not only the first (commission lowers equity).
                risk_percent: 0.15,
                stop_loss_distance: 0.01,
                rr_ratio: 2,
              });
              if (res.status === 200) acknowledged++;
              else await res.text();
            } catch {
              return; // the server has gone
            }
          }
        })();
        // Plenty of reads too, each a debug log line into the unread pipe.
        const reading = Promise.all(
          Array.from({ length: 200 }, () =>
            fetch(`${base}/api/accounts/me/`, { headers: { authorization: `Bearer ${token}` } })
              .then((r) => r.text())
              .catch(() => undefined),
          ),
        );
        await new Promise((r) => setTimeout(r, 700));

        const t0 = Date.now();
        process.kill(-npm.pid!, 'SIGTERM');
        while (alive(pid) && Date.now() - t0 < LIMIT_MS + 5_000) await new Promise((r) => setTimeout(r, 20));
        const took = Date.now() - t0;
        stop = true;
        await Promise.race([trading, new Promise((r) => setTimeout(r, 1000))]);
        await reading;
        for (const s of sockets) s.terminate();
        npm.stdout!.destroy();
        npm.stderr!.destroy();
        expect(alive(pid), `run ${run}: node still alive after ${took} ms`).toBe(false);
        expect(took, `run ${run}`).toBeLessThan(LIMIT_MS);
        exits.push(took);

        const db = new DatabaseSync(path.join(dataDir, 'app.db'));
        try {
          expect(db.prepare('pragma integrity_check').get()).toEqual({ integrity_check: 'ok' });
          const { n } = db.prepare('select count(*) as n from trades').get() as { n: number };
          expect(n, `run ${run}`).toBeGreaterThanOrEqual(acknowledged);
        } finally {
          db.close();
        }
      }
      // The data check means something only if trades were acknowledged while the server was stopped.
      expect(acknowledged, 'trades acknowledged under load, at least one a run').toBeGreaterThanOrEqual(RUNS);
      console.info(
        `shutdown: ${RUNS} runs, exit after SIGTERM in ${Math.min(...exits)}–${Math.max(...exits)} ms, ${acknowledged} trades acknowledged`,
      );
    },
    RUNS * 20_000,
  );
});
