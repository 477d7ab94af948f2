import { expect, it } from 'vitest';
import type { Cursor } from '../store.ts';
import { create, store, T0, transfer } from './context.ts';

/** A checkpoint at `height` whose final height is `finalHeight`. */
const at = (height: number, finalHeight: number): Omit<Cursor, 'chain'> => ({
  height,
  heightHash: `0xblock${height}`,
  heightTime: T0 / 1000 + height,
  finalHeight,
});
const hashes = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ height: from + i, hash: `0xblock${from + i}` }));

/** A scan step of `chain` that only moves its checkpoint. */
const step = (
  chain: string,
  cursor: Omit<Cursor, 'chain'>,
  blocks = hashes(cursor.finalHeight, cursor.height),
) => store.recordScan({ chain, transfers: [], statusChanges: [], transitions: [], cursor, blocks, now: T0 });

/** The Store contract on checkpoints and stored transfers (../store/scanning.ts); it runs inside scanningContract. */
export function scanningCheckpointsContract(): void {
  it('keeps a checkpoint per chain with the hashes of its blocks not final yet, and forgets it on reset', async () => {
    expect(await store.getCursor('ETH')).toBeNull();
    expect(await store.listCursors()).toEqual([]);
    await step('ETH', at(100, 95), [...hashes(93, 101), { height: 100, hash: '0xblock100-seen-last' }]);
    expect(await store.getCursor('ETH')).toEqual({ chain: 'ETH', ...at(100, 95) });
    expect(await store.unfinalBlocks('ETH')).toEqual([
      ...hashes(95, 99),
      { height: 100, hash: '0xblock100-seen-last' },
    ]);
    await step('ETH', at(105, 99), hashes(101, 105));
    expect(await store.unfinalBlocks('ETH')).toEqual([
      ...hashes(99, 99),
      { height: 100, hash: '0xblock100-seen-last' },
      ...hashes(101, 105),
    ]);
    // a rewind after a reorganisation: the blocks above the new checkpoint go
    await store.recordScan({
      chain: 'ETH',
      transfers: [],
      statusChanges: [],
      transitions: [],
      cursor: at(101, 99),
      blocks: hashes(101, 101),
      reorg: { depth: 4 },
      now: T0 + 7,
    });
    expect(await store.unfinalBlocks('ETH')).toEqual([
      ...hashes(99, 99),
      { height: 100, hash: '0xblock100-seen-last' },
      ...hashes(101, 101),
    ]);
    expect((await store.reorgStats()).find((r) => r.chain === 'ETH')).toEqual({
      chain: 'ETH',
      count: 1,
      lastDepth: 4,
      lastAt: T0 + 7,
    });
    await step('TRON', at(7, 5));
    expect((await store.listCursors()).sort((a, b) => a.chain.localeCompare(b.chain))).toEqual([
      { chain: 'ETH', ...at(101, 99) },
      { chain: 'TRON', ...at(7, 5) },
    ]);
    await store.resetCursor('ETH');
    expect(await store.getCursor('ETH')).toBeNull();
    expect(await store.unfinalBlocks('ETH')).toEqual([]);
    expect(await store.getCursor('TRON')).toEqual({ chain: 'TRON', ...at(7, 5) });
    expect(await store.unfinalBlocks('TRON')).toEqual(hashes(5, 7));
  });

  it('moves a stored transfer to the block it is in now until it is final, and never changes a final one', async () => {
    const write = (...transfers: ReturnType<typeof transfer>[]) =>
      store.recordScan({
        chain: 'ETH',
        transfers,
        statusChanges: [],
        transitions: [],
        cursor: null,
        now: T0,
      });
    const change = (...statusChanges: { id: string; status: 'final' | 'orphaned' }[]) =>
      store.recordScan({
        chain: 'ETH',
        transfers: [],
        statusChanges,
        transitions: [],
        cursor: null,
        now: T0,
      });
    const moved = { txid: '0xtx-t1', blockNum: 101, blockHash: '0xblock101' };
    // the same transfer twice in one step: the first sighting's row, in the later block
    await write(transfer('t1'), transfer('t1-again', moved));
    await write(transfer('t2', { blockNum: 90 }), transfer('t3', { blockNum: 95, chain: 'TRON' }));
    expect((await store.pendingTransfers('ETH')).map((t) => [t.id, t.blockNum, t.blockHash])).toEqual([
      ['t2', 90, '0xblock100'],
      ['t1', 101, '0xblock101'],
    ]);
    await change({ id: 't1', status: 'final' }, { id: 't2', status: 'orphaned' });
    await write(transfer('t1-later', { txid: '0xtx-t1', blockNum: 102, blockHash: '0xblock102' }));
    await change({ id: 't1', status: 'orphaned' });
    const t1 = (await store.transfersOfTransactions('ETH', ['0xtx-t1']))[0];
    expect([t1?.id, t1?.status, t1?.blockNum, t1?.amountBase]).toEqual(['t1', 'final', 101, 5_000_000n]);
    expect((await store.transfersOfChain('ETH')).map((t) => [t.id, t.status])).toEqual([
      ['t2', 'orphaned'],
      ['t1', 'final'],
    ]);
    expect(await store.pendingTransfers('ETH')).toEqual([]);
    expect((await store.transfersOfTransactions('TRON', ['0xtx-t3', '0xtx-t1'])).map((t) => t.id)).toEqual([
      't3',
    ]);
  });

  it('gives the transfers of orders, of transactions, and those no order took', async () => {
    const { order: a } = await create('A-1');
    const { order: b } = await create('A-2');
    const paid = (id: string, orderRef: string, blockNum: number) =>
      transfer(id, { orderRef, unattributedReason: null, blockNum, toAddress: '0xdeposit' });
    await store.recordScan({
      chain: 'ETH',
      transfers: [
        paid('a2', a.id, 102),
        paid('a1', a.id, 101),
        paid('b1', b.id, 100),
        transfer('late', { unattributedReason: 'late', blockNum: 99 }),
      ],
      statusChanges: [],
      transitions: [],
      cursor: null,
      now: T0,
    });
    await store.recordScan({
      chain: 'TRON',
      transfers: [transfer('tron', { chain: 'TRON', unattributedReason: 'wrong_token' })],
      statusChanges: [],
      transitions: [],
      cursor: null,
      now: T0 + 1,
    });
    const byOrder = await store.transfersOfOrders([a.id, b.id, 'ord_none']);
    expect([...byOrder.keys()].sort()).toEqual([a.id, b.id].sort());
    expect(
      byOrder
        .get(a.id)
        ?.map((t) => t.id)
        .sort(),
    ).toEqual(['a1', 'a2']);
    expect(byOrder.get(b.id)?.[0]).toMatchObject({
      id: 'b1',
      orderRef: b.id,
      to: '0xdeposit',
      status: 'pending',
    });
    expect((await store.unattributedTransfers('ETH')).map((t) => [t.id, t.unattributedReason])).toEqual([
      ['late', 'late'],
    ]);
    expect((await store.unattributedTransfers()).map((t) => t.id)).toEqual(['late', 'tron']);
  });
}
