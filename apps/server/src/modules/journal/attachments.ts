import { createHmac, timingSafeEqual } from 'node:crypto';

/** Images we accept, recognised by their first bytes, never by the file name or the declared type. */
export function sniffImage(head: Buffer): { contentType: string; ext: string } | null {
  if (
    head.length >= 8 &&
    head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return { contentType: 'image/png', ext: 'png' };
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff)
    return { contentType: 'image/jpeg', ext: 'jpg' };
  const ascii = head.subarray(0, 12).toString('latin1');
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a'))
    return { contentType: 'image/gif', ext: 'gif' };
  if (head.length >= 12 && ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP')
    return { contentType: 'image/webp', ext: 'webp' };
  return null;
}

/** Lifetime of a signed file link: long enough to render a journal, short enough not to leak for good. */
export const FILE_LINK_TTL_SECONDS = 3600;

/**
 * Signed links to an attachment for <img> tags (which cannot send an Authorization header):
 * `?token=<expiry>.<hmac(id, owner, expiry)>`, valid only for that attachment and owner.
 */
export function fileLinks(secret: string) {
  const key = createHmac('sha256', secret).update('journal-attachment-links').digest();
  const mac = (id: string, userId: string, exp: number) =>
    createHmac('sha256', key).update(`${id}\n${userId}\n${exp}`).digest('base64url');
  return {
    sign(id: string, userId: string, nowMs = Date.now()): string {
      const exp = Math.floor(nowMs / 1000) + FILE_LINK_TTL_SECONDS;
      return `${exp}.${mac(id, userId, exp)}`;
    },
    /** 'ok', 'expired' or 'invalid'. */
    verify(token: string, id: string, userId: string, nowMs = Date.now()): 'ok' | 'expired' | 'invalid' {
      const m = /^(\d{1,12})\.([A-Za-z0-9_-]{20,100})$/.exec(token);
      if (!m) return 'invalid';
      const exp = Number(m[1]);
      const expected = Buffer.from(mac(id, userId, exp));
      const given = Buffer.from(m[2]!);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
      return exp * 1000 < nowMs ? 'expired' : 'ok';
    },
  };
}
