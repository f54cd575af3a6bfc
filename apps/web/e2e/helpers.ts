import { deflateSync } from 'node:zlib';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import type { TestUser } from './fixtures';

/** The user's bearer header for direct API calls. */
export const auth = (u: TestUser) => ({ authorization: `Bearer ${u.token}` });

/** Opens a select and clicks one of its options (Mantine renders the options in a portal). */
export async function pickOption(page: Page, select: Locator, option: string | RegExp): Promise<void> {
  await select.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** A small valid PNG (solid colour), so the server's content check sees a real image. */
export function png(width = 8, height = 8): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const rows = Buffer.concat(
    Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x3c)])),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Opens and closes a BTCUSD trade (it trades at weekends) sized at 0.5 % risk with a 500-dollar stop. */
export async function roundTrip(
  request: APIRequestContext,
  u: TestUser,
  accountId: string,
  direction: 'BUY' | 'SELL',
  reason: string,
) {
  const details = await (
    await request.get(`/api/accounts/details/${accountId}`, { headers: auth(u) })
  ).json();
  const lots = Math.floor(((details.equity * 0.005) / 500) * 100) / 100;
  const res = await request.post('/api/trades/execute/', {
    headers: auth(u),
    data: {
      account_id: accountId,
      symbol: 'BTCUSD',
      lot_size: lots,
      direction,
      order_type: 'MARKET',
      risk_percent: 0.5,
      stop_loss_distance: 500,
      rr_ratio: 2,
      reason,
      trader: 'Me',
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const { trade_id } = await res.json();
  const closed = await request.delete(`/api/trades/close/${trade_id}/`, { headers: auth(u) });
  expect(closed.status(), await closed.text()).toBeLessThan(300);
  return trade_id as string;
}
