import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secrets';

describe('secret box', () => {
  const box = createSecretBox(randomBytes(32));

  it('round-trips and never stores the plain text', () => {
    const sealed = box.seal('hunter2-broker-password');
    expect(sealed).not.toContain('hunter2');
    expect(box.open(sealed)).toBe('hunter2-broker-password');
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses a tampered or foreign ciphertext', () => {
    const sealed = box.seal('secret');
    const parts = sealed.split(':');
    parts[3] = Buffer.from('tampered').toString('base64');
    expect(() => box.open(parts.join(':'))).toThrow();
    expect(() => createSecretBox(randomBytes(32)).open(sealed)).toThrow();
  });
});
