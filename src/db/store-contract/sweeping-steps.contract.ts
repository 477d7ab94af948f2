import { expect, it } from 'vitest';
import { store, T0 } from './context.ts';
import { cost, sweep, sweepTx } from './sweeping-fixtures.contract.ts';

/** The Store contract on storing sweeps and their steps (../store/sweeping.ts); it runs inside sweepingContract. */
export function sweepingStepsContract(): void {
  it('stores a new sweep planned and untried, and opens one per address, token and chain', async () => {
    const stored = await store.insertSweep(sweep('swp_1'));
    expect(stored).toEqual({
      ...sweep('swp_1'),
      error: null,
      held: false,
      tries: 0,
      nextTryAt: 0,
      updatedAt: T0,
      finalAt: null,
    });
    expect(await store.findSweep('swp_1')).toEqual(stored);
    expect(await store.findSweep('swp_none')).toBeNull();
    // another token at the address, the same token on another chain or at another address: all open at once
    await store.insertSweep(sweep('swp_2', { symbol: 'USDC' }));
    await store.insertSweep(sweep('swp_3', { chain: 'BSC' }));
    await store.insertSweep(sweep('swp_4', { address: '0xother' }));
    await expect(store.insertSweep(sweep('swp_5', { createdAt: T0 + 9 }))).rejects.toMatchObject({
      code: 'state_conflict',
      message: '0xdeposit already has an open USDT sweep.',
    });
    // a sweep id is never stored twice either
    await expect(store.insertSweep(sweep('swp_1', { address: '0xthird' }))).rejects.toMatchObject({
      code: 'state_conflict',
    });
    // once the open sweep is final, the address and token may be swept again
    await store.recordSweepStep({ step: { id: 'swp_1', from: 'planned', to: 'final' }, now: T0 + 10 });
    await store.insertSweep(sweep('swp_6', { createdAt: T0 + 11 }));
    expect((await store.openSweeps('ETH')).map((s) => s.id).sort()).toEqual(['swp_2', 'swp_4', 'swp_6']);
  });

  it('moves a sweep with the fields its step gives, keeps the others, and dates the final one', async () => {
    await store.insertSweep(sweep('swp_1'));
    await store.recordSweepStep({
      step: {
        id: 'swp_1',
        from: 'planned',
        to: 'planned',
        error: 'fee too high',
        tries: 2,
        nextTryAt: T0 + 500,
      },
      now: T0 + 1,
    });
    expect(await store.findSweep('swp_1')).toMatchObject({
      status: 'planned',
      error: 'fee too high',
      tries: 2,
      nextTryAt: T0 + 500,
      updatedAt: T0 + 1,
      finalAt: null,
    });
    await store.recordSweepStep({
      step: { id: 'swp_1', from: 'planned', to: 'signed', amountBase: '4999999', held: true, error: null },
      now: T0 + 2,
    });
    expect(await store.findSweep('swp_1')).toMatchObject({
      status: 'signed',
      amountBase: '4999999',
      held: true,
      error: null,
      tries: 2,
      nextTryAt: T0 + 500,
      finalAt: null,
    });
    await store.recordSweepStep({
      step: { id: 'swp_1', from: 'signed', to: 'final', held: false },
      now: T0 + 3,
    });
    expect(await store.findSweep('swp_1')).toMatchObject({
      status: 'final',
      held: false,
      updatedAt: T0 + 3,
      finalAt: T0 + 3,
    });
    await expect(
      store.recordSweepStep({ step: { id: 'swp_none', from: 'planned', to: 'failed' }, now: T0 + 4 }),
    ).rejects.toMatchObject({ code: 'state_conflict', message: 'Sweep swp_none is no longer planned.' });
  });

  it('stores a new transaction unseen by the chain, and then what the chain said about it, field by field', async () => {
    await store.insertSweep(sweep('swp_1'));
    await store.recordSweepStep({
      newTxs: [sweepTx('t1', 'swp_1', { validUntil: T0 + 60_000 })],
      now: T0 + 1,
    });
    const [signed] = await store.sweepTxsOf('swp_1');
    expect(signed).toEqual({
      ...sweepTx('t1', 'swp_1', { validUntil: T0 + 60_000 }),
      blockNum: null,
      feeBase: null,
      feePayer: null,
      error: null,
      createdAt: T0 + 1,
      updatedAt: T0 + 1,
    });
    await store.recordSweepStep({ txs: [{ id: 't1', status: 'mined', blockNum: 12 }], now: T0 + 2 });
    await store.recordSweepStep({
      txs: [{ id: 't1', status: 'final', feeBase: '21000000000000', feePayer: '0xhot' }],
      now: T0 + 3,
    });
    expect((await store.sweepTxsOf('swp_1'))[0]).toMatchObject({
      status: 'final',
      blockNum: 12,
      feeBase: '21000000000000',
      feePayer: '0xhot',
      error: null,
      createdAt: T0 + 1,
      updatedAt: T0 + 3,
    });
    await store.recordSweepStep({
      txs: [{ id: 't1', status: 'failed', blockNum: null, error: 'reverted' }],
      now: T0 + 4,
    });
    expect((await store.sweepTxsOf('swp_1'))[0]).toMatchObject({
      status: 'failed',
      blockNum: null,
      feeBase: '21000000000000',
      error: 'reverted',
    });
  });

  it('writes none of a step when one part of it is refused', async () => {
    await store.insertSweep(sweep('swp_1'));
    await store.insertSweep(sweep('swp_2', { address: '0xsecond' }));
    await store.recordSweepStep({
      step: { id: 'swp_1', from: 'planned', to: 'gas_sent' },
      newTxs: [sweepTx('t1', 'swp_1')],
      now: T0 + 1,
    });
    // the second sweep's top-up reuses the hot wallet's nonce 4: its move, its other transaction,
    // the update of t1 and the cost that came with it are all left unwritten
    const refused = store.recordSweepStep({
      step: { id: 'swp_2', from: 'planned', to: 'gas_sent' },
      newTxs: [
        sweepTx('t2', 'swp_2', { nonce: 5, toAddress: '0xsecond' }),
        sweepTx('t3', 'swp_2', { nonce: 4, toAddress: '0xsecond' }),
      ],
      txs: [{ id: 't1', status: 'final', blockNum: 9 }],
      costs: [cost('swp_1')],
      now: T0 + 2,
    });
    await expect(refused).rejects.toMatchObject({
      code: 'state_conflict',
      message: 'Transaction 0xt3 reuses a recorded transaction or nonce.',
    });
    expect((await store.findSweep('swp_2'))?.status).toBe('planned');
    expect(await store.sweepTxsOf('swp_2')).toEqual([]);
    expect((await store.sweepTxsOf('swp_1'))[0]?.status).toBe('signed');
    expect(await store.sumOperatorCosts()).toEqual([]);
    // a transaction hash already recorded is refused the same way, whatever its nonce
    await expect(
      store.recordSweepStep({ newTxs: [sweepTx('t4', 'swp_2', { nonce: 6, txHash: '0xt1' })], now: T0 + 3 }),
    ).rejects.toMatchObject({ code: 'state_conflict' });
    // transactions without a nonce (TRON, Sui) never collide on it
    await store.recordSweepStep({
      newTxs: [
        sweepTx('t5', 'swp_2', { chain: 'TRON', nonce: null, slot: 'ref 1' }),
        sweepTx('t6', 'swp_2', { chain: 'TRON', nonce: null, slot: 'ref 2' }),
      ],
      now: T0 + 4,
    });
    expect((await store.sweepTxsOf('swp_2')).map((t) => t.id)).toEqual(['t5', 't6']);
  });
}
