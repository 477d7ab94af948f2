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

  it('records a step only from the checkpoint it continues from, when it names one', async () => {
    const { order } = await create('A-1');
    const at = (height: number, finalHeight = 90) => ({
      height,
      heightHash: `0xblock${height}`,
      heightTime: T0 / 1000 + height,
      finalHeight,
    });
    const step = (base: ReturnType<typeof at> | null, cursor: ReturnType<typeof at>, id: string) =>
      store.recordScan({
        chain: 'ETH',
        transfers: [transfer(id, { txid: `0xtx-${id}`, orderRef: order.id, unattributedReason: null })],
        statusChanges: [],
        transitions: [],
        cursor,
        base,
        now: T0,
      });
    // the first checkpoint: only while there is none
    await step(null, at(100), 'trf_first');
    await expect(step(null, at(100), 'trf_first_again')).rejects.toMatchObject({ code: 'state_conflict' });
    // one worker's steps chain on from each other
    await step(at(100), at(110), 'trf_a');
    // a former lease holder's step, computed from checkpoint 100, lands after: refused whole
    await expect(step(at(100), at(105), 'trf_late')).rejects.toMatchObject({ code: 'state_conflict' });
    // the same height with another block hash, or another final height, is another checkpoint
    await expect(step({ ...at(110), heightHash: '0xother' }, at(120), 'trf_fork')).rejects.toMatchObject({
      code: 'state_conflict',
    });
    await expect(step(at(110, 95), at(120), 'trf_final')).rejects.toMatchObject({ code: 'state_conflict' });
    expect(await store.getCursor('ETH')).toEqual({ chain: 'ETH', ...at(110) });
    expect((await store.transfersOfChain('ETH')).map((t) => t.id).sort()).toEqual(['trf_a', 'trf_first']);
    // settling (no new checkpoint) is guarded the same way
    await expect(
      store.recordScan({
        chain: 'ETH',
        transfers: [],
        statusChanges: [{ id: 'trf_a', status: 'final' }],
        transitions: [],
        cursor: null,
        base: at(100),
        now: T0,
      }),
    ).rejects.toMatchObject({ code: 'state_conflict' });
    expect((await store.transfersOfChain('ETH')).find((t) => t.id === 'trf_a')?.status).toBe('pending');
  });

  scanningCheckpointsContract();
  scanningOrdersContract();
  scanningRacesContract();
}
