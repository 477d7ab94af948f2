import { describe, expect, it } from 'vitest';
import { WRITE_PROBE_KEY } from '../repositories/ops.ts';
import { store, T0 } from './context.ts';
import { operationsFiguresContract } from './operations-figures.contract.ts';

const token = (symbol: string, decimals: number, network: 'mainnet' | 'testnet' = 'mainnet') => ({
  network,
  chain: 'ETH',
  symbol,
  contract: `0x${symbol.toLowerCase()}`,
  decimals,
});

/** The Store contract on settings, added tokens, the write probe and the figures of metrics (../store/operations.ts); it runs inside storeContract's describe. */
export function operationsContract(): void {
  describe('operations', () => {
    it('keeps the first value of a write-once setting', async () => {
      expect(await store.getSetting('key_fingerprint')).toBeNull();
      expect(await store.setSettingOnce('key_fingerprint', 'first')).toBe('first');
      expect(await store.setSettingOnce('key_fingerprint', 'second')).toBe('first');
      await store.setSetting('other', 'x');
      expect(await store.getSetting('other')).toBe('x');
      await store.setSetting('other', 'y');
      expect(await store.getSetting('other')).toBe('y');
    });

    it('gives all of 20 processes setting a write-once value at once the same winner', async () => {
      const values = Array.from({ length: 20 }, (_, i) => `fingerprint-${i}`);
      const results = await Promise.all(values.map((v) => store.setSettingOnce('key_fingerprint', v)));
      expect(new Set(results).size).toBe(1);
      expect(values).toContain(results[0]);
      expect(await store.getSetting('key_fingerprint')).toBe(results[0]);
    });

    it('adds tokens per network in the order added, replacing the contract and decimals of the same symbol', async () => {
      await store.upsertToken(token('USDX', 6), T0);
      await store.upsertToken(token('EURX', 2), T0 + 1);
      await store.upsertToken(token('USDX', 6, 'testnet'), T0 + 2);
      await store.upsertToken({ ...token('USDX', 18), contract: '0xnew' }, T0 + 3);
      expect(await store.listAddedTokens('mainnet')).toEqual([
        { ...token('USDX', 18), contract: '0xnew' },
        token('EURX', 2),
      ]);
      expect(await store.listAddedTokens('testnet')).toEqual([token('USDX', 6, 'testnet')]);
    });

    it('keeps one token row when 10 operators add the same symbol at once', async () => {
      await Promise.all(Array.from({ length: 10 }, (_, i) => store.upsertToken(token('USDX', i), T0 + i)));
      const [only, ...rest] = await store.listAddedTokens('mainnet');
      expect(rest).toEqual([]);
      expect(only).toMatchObject({ symbol: 'USDX', contract: '0xusdx' });
    });

    it('proves the database takes writes by writing the probe row', async () => {
      await store.probeWrite(T0);
      expect(await store.getSetting(WRITE_PROBE_KEY)).toBe(String(T0));
      await Promise.all([store.probeWrite(T0 + 1), store.probeWrite(T0 + 2)]);
      expect([String(T0 + 1), String(T0 + 2)]).toContain(await store.getSetting(WRITE_PROBE_KEY));
    });

    operationsFiguresContract();
  });
}
