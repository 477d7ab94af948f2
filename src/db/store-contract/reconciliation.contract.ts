import { expect, it } from 'vitest';
import { create, store, T0 } from './context.ts';
import { reconciliationRecordsContract } from './reconciliation-records.contract.ts';
import { reconciliationRunsContract } from './reconciliation-runs.contract.ts';

/** The Store contract on reconciliation runs, the hot wallets' floats and the fees read (../store/reconciliation.ts); it runs inside storeContract's describe. */
export function reconciliationContract(): void {
  it('stores a reconciliation run with the floats and fees it learnt: the newest run is the last, a float is replaced, a fee stays as first read', async () => {
    const { order } = await create('A-1');
    const records = await store.chainRecords({ chain: order.chain, atHeight: Number.MAX_SAFE_INTEGER });
    expect(records.deposits).toEqual([{ address: order.address, orderId: 'A-1', merchantId: 'mch_a' }]);
    expect(await store.lastReconciliation()).toBeNull();
    const run = (id: string, at: number) => ({
      id,
      startedAt: at - 5,
      finishedAt: at,
      chains: ['ETH', 'TRON'],
      addresses: 2,
      unexplained: 0,
      report: '{}',
    });
    const hot = { chain: 'ETH', address: '0xhot', symbol: 'USDT' };
    await store.recordReconciliation({
      run: run('rec_1', T0 + 10),
      floats: [{ ...hot, floatBase: 5n }],
      txFees: [{ chain: 'ETH', txHash: '0xf1', feeBase: 21n }],
    });
    await store.recordReconciliation({
      run: run('rec_2', T0 + 20),
      floats: [{ ...hot, floatBase: 7n }],
      txFees: [{ chain: 'ETH', txHash: '0xf1', feeBase: 99n }],
    });
    expect(await store.lastReconciliation()).toEqual(run('rec_2', T0 + 20));
    expect(await store.walletFloatsOf('ETH')).toEqual([{ ...hot, floatBase: 7n, updatedAt: T0 + 20 }]);
    expect(await store.walletFloatsOf('TRON')).toEqual([]);
    expect(await store.cachedTxFees('ETH')).toEqual(new Map([['0xf1', 21n]]));
  });

  reconciliationRecordsContract();
  reconciliationRunsContract();
}
