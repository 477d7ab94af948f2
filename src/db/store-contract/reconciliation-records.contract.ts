import { expect, it } from 'vitest';
import { collection, create, derive, store, T0, transfer } from './context.ts';
import { scanned, sweep, sweepTx } from './sweeping-fixtures.contract.ts';

/** The Store contract on what `kassa reconcile` reads from the records (../store/reconciliation.ts); it runs inside reconciliationContract. */
export function reconciliationRecordsContract(): void {
  it("reads a chain's deposit addresses, incoming transfers up to a height, payouts and sweep transactions", async () => {
    const { order: a } = await create('A-1');
    const { order: b } = await create('A-2');
    await create('T-1', { chain: 'TRON' });
    const { order: payout } = await store.createOrder({
      order: collection('mch_a', 'P-1', {
        type: 'PAYOUT',
        address: '0xhotwallet',
        receiveAddress: '0xcustomer',
        amountBase: 2n ** 64n + 3n,
      }),
      family: null,
      derive,
      now: T0,
    });
    const big = 2n ** 64n + 1n;
    await scanned('ETH', {
      transfers: [
        transfer('trf_a', {
          toAddress: a.address,
          amountBase: big,
          blockNum: 100,
          status: 'final',
          orderRef: a.id,
          unattributedReason: null,
        }),
        transfer('trf_b', { toAddress: b.address, blockNum: 110, status: 'pending' }),
        transfer('trf_late', { toAddress: a.address, blockNum: 111 }),
        transfer('trf_gone', { toAddress: a.address, blockNum: 105 }),
      ],
    });
    await scanned('ETH', { statusChanges: [{ id: 'trf_gone', status: 'orphaned' }] });
    await store.commitSignedPayout({
      attempt: {
        id: 'pat_1',
        orderRef: payout.id,
        chain: 'ETH',
        fromAddress: '0xhotwallet',
        nonce: 3,
        txHash: '0xpayout',
        rawTx: '00',
        status: 'signed',
        validUntil: null,
        slot: 'nonce 3',
        replacesAttempt: null,
        maxFeePerGas: null,
        maxPriorityFeePerGas: null,
      },
      transition: { order: payout, patch: { status: 'PENDING' } },
      now: T0 + 1,
    });
    await store.insertSweep(
      sweep('swp_1', { address: a.address, destination: '0xtreasury', destinationKind: 'treasury' }),
    );
    await store.recordSweepStep({
      newTxs: [
        sweepTx('t1', 'swp_1', { toAddress: a.address }),
        sweepTx('t2', 'swp_1', {
          role: 'transfer',
          fromAddress: a.address,
          toAddress: '0xtreasury',
          nonce: 0,
          valueBase: big.toString(),
        }),
      ],
      now: T0 + 2,
    });
    await store.recordSweepStep({
      txs: [{ id: 't1', status: 'final', blockNum: 101, feeBase: '21', feePayer: '0xhot' }],
      now: T0 + 3,
    });

    const records = await store.chainRecords({ chain: 'ETH', atHeight: 110 });
    const byAddress = (x: { address: string }, y: { address: string }) => x.address.localeCompare(y.address);
    expect(records.deposits.sort(byAddress)).toEqual(
      [
        { address: a.address, orderId: 'A-1', merchantId: 'mch_a' },
        { address: b.address, orderId: 'A-2', merchantId: 'mch_a' },
      ].sort(byAddress),
    );
    expect(records.transfersIn.sort((x, y) => x.blockNum - y.blockNum)).toEqual([
      {
        address: a.address,
        symbol: 'USDT',
        amountBase: big,
        txid: '0xtx-trf_a',
        blockNum: 100,
        status: 'final',
        orderId: 'A-1',
        unattributedReason: null,
      },
      {
        address: b.address,
        symbol: 'USDT',
        amountBase: 5_000_000n,
        txid: '0xtx-trf_b',
        blockNum: 110,
        status: 'pending',
        orderId: null,
        unattributedReason: 'no_order',
      },
    ]);
    expect(records.payouts).toEqual([
      {
        orderId: 'P-1',
        fromAddress: '0xhotwallet',
        symbol: 'USDT',
        amountBase: 2n ** 64n + 3n,
        txHash: '0xpayout',
        status: 'signed',
        blockNum: null,
      },
    ]);
    const common = { sweepId: 'swp_1', symbol: 'USDT', destinationKind: 'treasury' };
    expect(records.sweepTxs.sort((x, y) => x.txHash.localeCompare(y.txHash))).toEqual([
      {
        ...common,
        role: 'topup',
        fromAddress: '0xhot',
        toAddress: a.address,
        valueBase: 1000n,
        txHash: '0xt1',
        status: 'final',
        blockNum: 101,
        feeBase: 21n,
        feePayer: '0xhot',
      },
      {
        ...common,
        role: 'transfer',
        fromAddress: a.address,
        toAddress: '0xtreasury',
        valueBase: big,
        txHash: '0xt2',
        status: 'signed',
        blockNum: null,
        feeBase: null,
        feePayer: null,
      },
    ]);
    expect((await store.chainRecords({ chain: 'ETH', atHeight: 111 })).transfersIn.length).toBe(3);
    expect(await store.chainRecords({ chain: 'BSC', atHeight: 1000 })).toEqual({
      deposits: [],
      transfersIn: [],
      payouts: [],
      sweepTxs: [],
    });
  });
}
