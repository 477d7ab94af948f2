import { describe, expect, it } from 'vitest';
import { merchant, store, T0 } from './context.ts';

/** The Store contract on merchants and their request nonces (../store/merchants.ts); it runs inside storeContract's describe. */
export function merchantsContract(): void {
  describe('merchants and nonces', () => {
    it('keeps merchants and lists only the active ones', async () => {
      await store.insertMerchant(merchant('mch_b', { createdAt: T0 + 1 }));
      expect((await store.findMerchant('mch_b'))?.tokenSealed).toBe('sealed-token-mch_b');
      expect(await store.findMerchant('mch_none')).toBeNull();
      await store.updateMerchant('mch_a', { status: 'disabled' }, T0 + 2);
      expect((await store.listActiveMerchants()).map((m) => m.id)).toEqual(['mch_b']);
      expect((await store.listMerchants()).map((m) => m.id).sort()).toEqual(['mch_a', 'mch_b']);
      await store.updateMerchant('mch_b', { compat: 'xpay' }, T0 + 3);
      expect((await store.findMerchant('mch_b'))?.compat).toBe('xpay');
    });

    it('lists merchants oldest first, changes only the fields given, and refuses a second one of an id', async () => {
      await store.insertMerchant(merchant('mch_c', { createdAt: T0 + 2 }));
      await store.insertMerchant(
        merchant('mch_b', { createdAt: T0 + 1, callbackUrl: 'https://b.example/hook' }),
      );
      expect((await store.listMerchants()).map((m) => m.id)).toEqual(['mch_a', 'mch_b', 'mch_c']);
      await expect(store.insertMerchant(merchant('mch_b'))).rejects.toThrow();
      expect(await store.updateMerchant('mch_b', { tokenSealed: 'rotated' }, T0 + 9)).toBe(true);
      expect(await store.findMerchant('mch_b')).toEqual(
        merchant('mch_b', {
          createdAt: T0 + 1,
          callbackUrl: 'https://b.example/hook',
          tokenSealed: 'rotated',
          updatedAt: T0 + 9,
        }),
      );
      expect(await store.updateMerchant('mch_none', { status: 'disabled' }, T0)).toBe(false);
      expect(await store.findMerchant('mch_none')).toBeNull();
    });

    it('refuses a duplicate without repeating its values: no secret reaches the error text or its fields', async () => {
      const copy = merchant('mch_a', {
        tokenSealed: 'sealed-SECRET-token',
        webhookSecretSealed: 'sealed-SECRET-hook',
      });
      const error = await store.insertMerchant(copy).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      // what a log line would carry: the message, the stack and every field, causes included
      const seen: unknown[] = [];
      for (let e: unknown = error; e && !seen.includes(e); e = (e as { cause?: unknown }).cause) seen.push(e);
      const text = seen
        .map(
          (e) =>
            `${(e as Error).message}\n${(e as Error).stack}\n${JSON.stringify(e, Object.getOwnPropertyNames(e))}`,
        )
        .join('\n');
      expect(text).not.toContain('SECRET');
      expect(text).not.toContain('shop mch_a');
    });

    it('takes a request nonce once per merchant until it is pruned', async () => {
      expect(await store.consumeNonce('mch_a', 'n-1', T0 + 1000)).toBe(true);
      expect(await store.consumeNonce('mch_a', 'n-1', T0 + 1000)).toBe(false);
      expect(await store.consumeNonce('mch_b', 'n-1', T0 + 1000)).toBe(true);
      expect(await store.pruneNonces(T0 + 1001)).toBe(2);
      expect(await store.consumeNonce('mch_a', 'n-1', T0 + 5000)).toBe(true);
    });

    it('prunes only the nonces whose window has passed', async () => {
      await store.consumeNonce('mch_a', 'early', T0 + 1000);
      await store.consumeNonce('mch_a', 'late', T0 + 2000);
      expect(await store.pruneNonces(T0 + 1000)).toBe(0); // expires at, not before: kept
      expect(await store.pruneNonces(T0 + 1001)).toBe(1);
      expect(await store.consumeNonce('mch_a', 'late', T0 + 2000)).toBe(false);
      expect(await store.consumeNonce('mch_a', 'early', T0 + 3000)).toBe(true);
    });

    it('accepts a nonce sent 20 times at once exactly once, and 20 different nonces each once', async () => {
      const replays = await Promise.all(
        Array.from({ length: 20 }, () => store.consumeNonce('mch_a', 'n-x', T0 + 1000)),
      );
      expect(replays.filter(Boolean)).toHaveLength(1);
      const fresh = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.consumeNonce('mch_a', `n-${i}`, T0 + 1000)),
      );
      expect(fresh.every(Boolean)).toBe(true);
      expect(await store.pruneNonces(T0 + 1001)).toBe(21);
    });
  });
}
