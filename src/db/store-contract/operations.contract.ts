import { expect, it } from 'vitest';
import { store } from './context.ts';

/** The Store contract on settings (../store/operations.ts); it runs inside storeContract's describe. */
export function operationsContract(): void {
  it('keeps the first value of a write-once setting', async () => {
    expect(await store.getSetting('key_fingerprint')).toBeNull();
    expect(await store.setSettingOnce('key_fingerprint', 'first')).toBe('first');
    expect(await store.setSettingOnce('key_fingerprint', 'second')).toBe('first');
    await store.setSetting('other', 'x');
    expect(await store.getSetting('other')).toBe('x');
  });
}
