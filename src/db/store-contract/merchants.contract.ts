import { expect, it } from 'vitest';
import { merchant, store, T0 } from './context.ts';

/** The Store contract on merchants and their request nonces (../store/merchants.ts); it runs inside storeContract's describe. */
export function merchantsContract(): void {
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

  it('takes a request nonce once per merchant until it is pruned', async () => {
    expect(await store.consumeNonce('mch_a', 'n-1', T0 + 1000)).toBe(true);
    expect(await store.consumeNonce('mch_a', 'n-1', T0 + 1000)).toBe(false);
    expect(await store.consumeNonce('mch_b', 'n-1', T0 + 1000)).toBe(true);
    expect(await store.pruneNonces(T0 + 1001)).toBe(2);
    expect(await store.consumeNonce('mch_a', 'n-1', T0 + 5000)).toBe(true);
  });
}
