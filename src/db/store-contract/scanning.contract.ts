import { expect, it } from 'vitest';
import { AppError } from '../../domain/errors.ts';
import { create, store, T0, transfer } from './context.ts';
import { scanningCheckpointsContract } from './scanning-checkpoints.contract.ts';
import { scanningOrdersContract } from './scanning-orders.contract.ts';
import { scanningRacesContract } from './scanning-races.contract.ts';

/** The Store contract on a scan step, recorded whole or not at all (../store/scanning.ts); it runs inside storeContract's describe. */
export function scanningContract(): void {
  it('records a scan step whole: transfers, checkpoint and transitions, or nothing', async () => {
    const { order } = await create('A-1');
    const cursor = { height: 100, heightHash: '0xblock100', heightTime: T0 / 1000, finalHeight: 90 };
    await store.recordScan({
      chain: 'ETH',
      transfers: [transfer('trf_1')],
      statusChanges: [],
      transitions: [],
      cursor,
      now: T0,
    });
    expect(await store.getCursor('ETH')).toEqual({ chain: 'ETH', ...cursor });
    // the same observation again (a re-scan) is not a second transfer
    await store.recordScan({
      chain: 'ETH',
      transfers: [transfer('trf_1_again', { txid: '0xtx-trf_1' })],
      statusChanges: [],
      transitions: [],
      cursor,
      now: T0 + 1,
    });
    expect((await store.transfersOfChain('ETH')).length).toBe(1);

    const stale = { ...order, status: 'PENDING' as const };
    await expect(
      store.recordScan({
        chain: 'ETH',
        transfers: [transfer('trf_2', { txid: '0xtx-other' })],
        statusChanges: [],
        transitions: [{ order: stale, patch: { status: 'SUCCESS' } }],
        cursor: { ...cursor, height: 101, heightHash: '0xblock101' },
        now: T0 + 2,
      }),
    ).rejects.toBeInstanceOf(AppError);
    expect((await store.transfersOfChain('ETH')).map((t) => t.txid)).toEqual(['0xtx-trf_1']);
    expect((await store.getCursor('ETH'))?.height).toBe(100);
  });

  scanningCheckpointsContract();
  scanningOrdersContract();
  scanningRacesContract();
}
