import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { WEDNESDAY } from '../../test/sim-clock';
import { newTrader, openEurusdTrade } from '../../test/traders';

/** A 1×1 PNG and the first bytes of the other accepted formats. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(32, 0)]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x20, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(32),
]);

function multipart(fields: Record<string, string>, file?: { name: string; type: string; data: Buffer }) {
  const boundary = `----tradedesk${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    body: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describeEachDb('trade journals and attachments', (target) => {
  let h: Harness;
  let n = 0;
  // Every request logged (slow from 0 ms, debug level) so that the check below sees all of them.
  const logLines: string[] = [];
  beforeAll(async () => {
    h = await createHarness(target, {
      simNow: () => WEDNESDAY,
      logLevel: 'debug',
      slowRequestMs: 0,
      logStream: { write: (line: string) => void logLines.push(line) },
    });
  });
  afterAll(() => h.close());

  afterAll(() => {
    // Signed file links are credentials for an hour: they never reach the log (docs/security.md).
    const fileLines = logLines.filter((l) => l.includes('/attachments/'));
    expect(fileLines.length).toBeGreaterThan(0);
    expect(fileLines.every((l) => /"level":(40|50)/.test(l))).toBe(true);
    expect(logLines.filter((l) => l.includes('token='))).toEqual([]);
  });

  /** A trader with one executed trade on the Demo account. */
  async function traderWithTrade() {
    const t = await newTrader(h, `journaler${++n}`);
    return { token: t.token, tradeId: await openEurusdTrade(h, t) };
  }

  const upload = (
    token: string,
    fields: Record<string, string>,
    file?: { name: string; type: string; data: Buffer },
  ) => {
    const m = multipart(fields, file);
    return h.request('POST', '/api/trade_journal/attachments/', { token, body: m.body, headers: m.headers });
  };

  it('creates a journal for a trade and lists it with its attachments', async () => {
    const { token, tradeId } = await traderWithTrade();
    const res = await h.request('POST', '/api/trade_journal/journals/', {
      token,
      body: {
        trade: tradeId,
        action: 'Opened Position',
        trade_timeframe: '1H',
        reason: 'Retest of the breakout level',
        details: 'London open',
        strategy_tag: 'breakout',
        emotional_state: 'calm',
        market_condition: 'trending',
      },
    });
    expect(res.statusCode).toBe(201);
    const journal = res.json();
    expect(journal).toMatchObject({
      trade: tradeId,
      reason: 'Retest of the breakout level',
      attachments: [],
    });

    const up = await upload(
      token,
      { journal: journal.id },
      { name: 'chart.png', type: 'image/png', data: PNG },
    );
    expect(up.statusCode).toBe(201);
    expect(up.json()).toMatchObject({ journal: journal.id, content_type: 'image/png', size: PNG.length });
    for (const [name, data, type] of [
      ['a.jpg', JPEG, 'image/jpeg'],
      ['b.gif', GIF, 'image/gif'],
      ['c.webp', WEBP, 'image/webp'],
    ] as const) {
      const r = await upload(
        token,
        { journal: journal.id },
        { name, type: 'application/octet-stream', data },
      );
      expect(r.statusCode, name).toBe(201);
      expect(r.json().content_type).toBe(type);
    }
    // Only the server's user can read the stored files (docs/security.md).
    const folder = path.join(h.dataDir, 'attachments');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    for (const f of readdirSync(folder)) expect(statSync(path.join(folder, f)).mode & 0o777, f).toBe(0o600);

    const list = await h.request('GET', `/api/trade_journal/journals/?trade=${tradeId}`, { token });
    expect(list.statusCode).toBe(200);
    const [entry] = list.json().results;
    expect(entry).toMatchObject({ id: journal.id, created_at: journal.created_at });
    expect(entry.attachments).toHaveLength(4);
    const file = entry.attachments[0].file as string;
    expect(file).toMatch(/^\/api\/trade_journal\/attachments\/[\w-]+\/file\?token=/);

    // An <img> tag loads the signed URL without headers; the bytes come back typed and unsniffable.
    const img = await h.request('GET', file);
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.headers['x-content-type-options']).toBe('nosniff');
    expect(img.rawPayload.equals(PNG)).toBe(true);
    // The owner's bearer token works too; no credentials at all is 401; a forged token is 404.
    const bare = file.split('?')[0]!;
    expect((await h.request('GET', bare, { token })).statusCode).toBe(200);
    expect((await h.request('GET', bare)).statusCode).toBe(401);
    expect((await h.request('GET', `${bare}?token=9999999999.${'A'.repeat(43)}`)).statusCode).toBe(404);

    // Stored under DATA_DIR/attachments with a random name, not the upload's.
    const stored = readdirSync(path.join(h.dataDir, 'attachments'));
    expect(stored.some((f) => f.includes('chart'))).toBe(false);
    expect(stored.filter((f) => /^[0-9a-f]{32}\.(png|jpg|gif|webp)$/.test(f)).length).toBeGreaterThanOrEqual(
      4,
    );
  });

  it('requires a reason with the spec message', async () => {
    const { token, tradeId } = await traderWithTrade();
    for (const reason of [undefined, '', '   ']) {
      const res = await h.request('POST', '/api/trade_journal/journals/', {
        token,
        body: { trade: tradeId, action: 'Opened Position', reason },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toEqual({ reason: ['Please enter a reason before submitting the journal.'] });
    }
  });

  it('refuses a non-image (whatever its name) and an 11 MB file with a clear detail', async () => {
    const { token, tradeId } = await traderWithTrade();
    const journal = (
      await h.request('POST', '/api/trade_journal/journals/', {
        token,
        body: { trade: tradeId, reason: 'x' },
      })
    ).json();
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const fake = await upload(
      token,
      { journal: journal.id },
      { name: 'evil.png', type: 'image/png', data: html },
    );
    expect(fake.statusCode).toBe(400);
    expect(fake.json().detail).toEqual({ files: ['Only images can be attached: PNG, JPEG, WebP or GIF.'] });

    const big = Buffer.concat([PNG, Buffer.alloc(11 * 1024 * 1024, 7)]);
    const huge = await upload(
      token,
      { journal: journal.id },
      { name: 'big.png', type: 'image/png', data: big },
    );
    expect(huge.statusCode).toBe(413);
    expect(huge.json().detail).toBe('The file is too large: attachments are limited to 10 MB.');

    const none = await upload(token, { journal: journal.id });
    expect(none.statusCode).toBe(400);
    const list = (await h.request('GET', `/api/trade_journal/journals/?trade=${tradeId}`, { token })).json();
    expect(list.results[0].attachments).toEqual([]);
  });

  it("answers 404 for another user's trade, journal or attachment", async () => {
    const owner = await traderWithTrade();
    const journal = (
      await h.request('POST', '/api/trade_journal/journals/', {
        token: owner.token,
        body: { trade: owner.tradeId, reason: 'mine' },
      })
    ).json();
    const att = (
      await upload(owner.token, { journal: journal.id }, { name: 'c.png', type: 'image/png', data: PNG })
    ).json();
    const other = await traderWithTrade();
    const bare = `/api/trade_journal/attachments/${att.id}/file`;
    expect((await h.request('GET', bare, { token: other.token })).statusCode).toBe(404);
    // A signed link of someone else's attachment does not open another id.
    const otherJournal = (
      await h.request('POST', '/api/trade_journal/journals/', {
        token: other.token,
        body: { trade: other.tradeId, reason: 'theirs' },
      })
    ).json();
    const theirs = (
      await upload(other.token, { journal: otherJournal.id }, { name: 'd.png', type: 'image/png', data: PNG })
    ).json();
    const theirToken = (theirs.file as string).split('token=')[1];
    expect((await h.request('GET', `${bare}?token=${theirToken}`)).statusCode).toBe(404);

    expect(
      (await h.request('GET', `/api/trade_journal/journals/?trade=${owner.tradeId}`, { token: other.token }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await h.request('POST', '/api/trade_journal/journals/', {
          token: other.token,
          body: { trade: owner.tradeId, reason: 'not mine' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await upload(other.token, { journal: journal.id }, { name: 'e.png', type: 'image/png', data: PNG }))
        .statusCode,
    ).toBe(404);
    expect(existsSync(path.join(h.dataDir, 'attachments'))).toBe(true);
  });

  it('pages through more journals than one page holds, newest first, with a cursor', async () => {
    const { token, tradeId } = await traderWithTrade();
    const total = 7;
    for (let i = 0; i < total; i++) {
      const res = await h.request('POST', '/api/trade_journal/journals/', {
        token,
        body: { trade: tradeId, reason: `note ${i}` },
      });
      expect(res.statusCode).toBe(201);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/api/trade_journal/journals/?trade=${tradeId}&limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const page: { results: Array<{ id: string }>; next_cursor: string | null } = (
        await h.request('GET', url, { token })
      ).json();
      expect(page.results.length).toBeLessThanOrEqual(3);
      seen.push(...page.results.map((j: { id: string }) => j.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(total);
    const all = (
      await h.request('GET', `/api/trade_journal/journals/?trade=${tradeId}&limit=200`, { token })
    ).json();
    expect(all.results.map((j: { id: string }) => j.id)).toEqual(seen);
    expect(all.next_cursor).toBeNull();

    const bad = await h.request('GET', `/api/trade_journal/journals/?cursor=not-a-cursor`, { token });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().detail)).toEqual(['cursor']);
    expect((await h.request('GET', `/api/trade_journal/journals/?limit=201`, { token })).statusCode).toBe(
      400,
    );
  });
});
