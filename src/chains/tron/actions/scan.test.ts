import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER, tronGenesis, USDT } from '../../../../test/helpers/tron-chain.ts';
import {
  customerPaysOn,
  other,
  tronAdapterOn,
  trx,
  usdt,
  watched,
} from '../../../../test/helpers/tron-node.ts';
import { type FakeTronNode, startFakeTronNode } from '../../../devnet/tron/index.ts';

let node: FakeTronNode;
beforeAll(async () => {
  node = await startFakeTronNode({ blockIntervalMs: 0, genesis: tronGenesis() });
});
afterAll(() => node?.close());
const adapterFor = (options: Parameters<typeof tronAdapterOn>[1] = {}) => tronAdapterOn(node, options);
const customerPays = (to: string, amount: bigint, options: Parameters<typeof customerPaysOn>[3] = {}) =>
  customerPaysOn(node, to, amount, options);

describe('TRON scan', () => {
  it('scans USDT and TRX deposits to watched addresses only, with the same keys every time', async () => {
    const a = await adapterFor();
    const from = node.head() + 1;
    const tokenTx = await customerPays(watched, 1_500_000n);
    await customerPays(other, 2_000_000n);
    const trxTx = await customerPays(watched, 3_000_000n, { token: false });
    node.mine(1);
    const failedTx = await customerPays(watched, 4_000_000n, { feeLimit: 100_000 }); // runs out of energy
    node.mine(2);
    const found = await a.scan(from, node.head(), new Set([watched]), [usdt, trx]);
    expect(found.map((t) => [t.txid, t.eventKey, t.contract, t.to, t.amountBase, t.success])).toEqual([
      [trxTx, 'native', null, watched, 3_000_000n, true],
      [tokenTx, '0', USDT, watched, 1_500_000n, true],
    ]);
    expect(found.find((t) => t.txid === failedTx)).toBeUndefined(); // a reverted call logs nothing
    expect(found[0]).toMatchObject({
      from: CUSTOMER,
      blockNum: from,
      blockHash: (await a.block(from))?.hash,
    });
    expect(await a.scan(from, node.head(), new Set([watched]), [usdt, trx])).toEqual(found);
    expect(await a.scan(from, node.head(), new Set([watched]), [trx])).toHaveLength(1);
    expect(await a.scan(from, node.head(), new Set(), [usdt, trx])).toEqual([]);
  });

  it('keeps txid and log position when a fork re-includes the transaction in another block', async () => {
    const a = await adapterFor();
    const txid = await customerPays(watched, 5_000_000n);
    node.mine(1);
    const first = (await a.scan(node.head(), node.head(), new Set([watched]), [usdt]))[0];
    node.fork(1, { reinclude: true });
    node.mine(1);
    const again = (await a.scan(node.head(), node.head(), new Set([watched]), [usdt]))[0];
    expect(again).toMatchObject({ txid, eventKey: first?.eventKey, blockNum: first?.blockNum });
    expect(again?.blockHash).not.toBe(first?.blockHash);
  });
});
