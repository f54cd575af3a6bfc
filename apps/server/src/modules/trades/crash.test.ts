import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { createHarness, describeEachDb } from '../../test/harness';
import { schemaUrl, withPgSchema } from '../../test/pg-schema';
import { modalForm, modalRequest, newTrader } from '../../test/traders';
import { WEDNESDAY } from '../../test/sim-clock';
import { brokerRegistry } from '../../brokers/registry';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** The real server as a process of its own (main.ts), on the test's data dir or schema. */
async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${stderr}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { child, url };
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 60_000) throw new Error(`server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const exited = (child: ChildProcess) =>
  new Promise<NodeJS.Signals | number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.signalCode ?? child.exitCode);
    else child.once('exit', (code, signal) => resolve(signal ?? code));
  });

/**
 * No order without its record: the server process is killed (SIGKILL, as `kill -9`) between the
 * broker's fill and the completion of the trade row; after a restart the position belongs to exactly
 * one trade, adopted from its `submitting` row by the client order id.
 */
describeEachDb('a crash between the fill and the record', (target) => {
  it('leaves the position adopted exactly once after a restart', { timeout: 180_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tradedesk-crash-'));
    const schema = target.url ? `t_crash_${randomBytes(5).toString('hex')}` : undefined;
    if (target.url && schema) await withPgSchema(target.url, schema, 'create');
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      SIM_START: new Date(WEDNESDAY).toISOString(),
      ...(target.url && schema ? { DATABASE_URL: schemaUrl(target.url, schema) } : {}),
    };
    const children: ChildProcess[] = [];
    try {
      // The user, their account and the modal's request, made by the app in-process on the same data.
      let h = await createHarness(target, { simNow: () => WEDNESDAY }, { dataDir, schema });
      const t = await newTrader(h, 'crashtrader');
      const body = await modalRequest(h, WEDNESDAY, t, modalForm(t.accountId, 'EURUSD'));
      await h.close({ keepData: true });

      const first = await startServer({ ...env, TRADEDESK_CRASH_POINT: 'after_fill' });
      children.push(first.child);
      const sent = fetch(`${first.url}/api/trades/execute/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await expect(sent).rejects.toThrow();
      expect(await exited(first.child)).toBe('SIGKILL');

      // Restart twice: the first adopts the position, the second finds nothing more to adopt.
      for (let restart = 0; restart < 2; restart++) {
        const again = await startServer(env);
        children.push(again.child);
        const res = await fetch(`${again.url}/api/trades/open-positions/${t.accountId}/`, {
          headers: { authorization: `Bearer ${t.token}` },
        });
        expect(res.status).toBe(200);
        const { open_positions } = (await res.json()) as { open_positions: Array<{ lot_size: number }> };
        expect(open_positions.map((p) => p.lot_size)).toEqual([body.lot_size]);
        again.child.kill('SIGTERM');
        await exited(again.child);
      }

      h = await createHarness(target, { simNow: () => WEDNESDAY }, { dataDir, schema });
      const rows = await h.ctx.db
        .selectFrom('trades')
        .selectAll()
        .where('account_id', '=', t.accountId)
        .execute();
      expect(rows.map((r) => [r.status, r.source, r.volume])).toEqual([['open', 'app', body.lot_size]]);
      const account = await h.ctx.db
        .selectFrom('trading_accounts')
        .selectAll()
        .where('id', '=', t.accountId)
        .executeTakeFirstOrThrow();
      const broker = await (await brokerRegistry(h.ctx).connected(account)).reconcile();
      expect(broker.positions.map((p) => p.position_id)).toEqual([rows[0]!.position_id]);
      await h.close({ keepData: true });
    } finally {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      if (target.url && schema) await withPgSchema(target.url, schema, 'drop');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
