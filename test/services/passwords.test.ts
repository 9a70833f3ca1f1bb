import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../src/services/passwords.js';

describe('password hashes', () => {
  it('verifies the right password only, and salts each hash', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct');
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('treats a composed and a decomposed accent as the same password', async () => {
    const h = await hashPassword('caf\u00e9 au lait');
    expect(await verifyPassword('cafe\u0301 au lait', h)).toBe(true);
  });

  it('answers false, never throws, for a malformed stored hash', async () => {
    for (const bad of ['', 'plain', 'scrypt$x$8$1$c2FsdA$aGFzaA', 'bcrypt$1$2$3$4$5', 'scrypt$16384$8$1$c2FsdA$']) {
      expect(await verifyPassword('pw', bad)).toBe(false);
    }
  });
});
