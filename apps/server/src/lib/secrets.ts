import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for broker passwords and tokens at rest. The stored form is
 * `v1:<iv>:<tag>:<ciphertext>` (base64 parts), so a key or format change can be told apart later.
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('The secrets key must be 32 bytes');
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [
        'v1',
        iv.toString('base64'),
        cipher.getAuthTag().toString('base64'),
        body.toString('base64'),
      ].join(':');
    },
    open(sealed) {
      const [v, iv, tag, body] = sealed.split(':');
      if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unreadable secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}
