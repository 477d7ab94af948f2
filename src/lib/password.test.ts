import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, passwordProblem, verifyPassword } from './password.ts';

describe('operator passwords', () => {
  it('stores an scrypt hash with its parameters and a fresh salt, never the password', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('horse');
  });

  it('is node:crypto scrypt of the NFKC password with the stored salt', async () => {
    const stored = await hashPassword('ﬁne password 123');
    const [, N, r, p, salt, hash] = stored.split('$');
    const key = scryptSync('fine password 123', Buffer.from(salt as string, 'base64'), 32, {
      N: Number(N),
      r: Number(r),
      p: Number(p),
      maxmem: 256 * 2 ** 15 * 8 * 3,
    });
    expect(key.toString('base64')).toBe(hash);
  });

  it('verifies the right password only', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('never matches a damaged or foreign hash, and never throws on one', async () => {
    for (const bad of [
      '',
      'scrypt$1$1',
      'bcrypt$2b$10$abc',
      'scrypt$x$8$1$AAAA$AAAA',
      'scrypt$2$8$1$AAAA$AAAA',
    ])
      expect(await verifyPassword('anything at all', bad)).toBe(false);
  });

  it('asks for at least 12 characters', () => {
    expect(passwordProblem('short pass1')).toMatch(/at least 12/);
    expect(passwordProblem('twelve chars')).toBeNull();
    expect(passwordProblem('x'.repeat(2000))).toMatch(/at most/);
  });
});
