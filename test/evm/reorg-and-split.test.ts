import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transfersOfChain } from '../../src/db/repositories/chain-scan.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { reorg } from '../../src/devnet/evm/reorg.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { body } from '../helpers/harness.ts';

let n = 0;
async function collect(w: EvmWorld, m: MerchantCreated, chain: string, symbol: string, amount: string) {
  const orderId = `r-${++n}`;
  const r = await body<{ address: string }>(
    await w.h.post('/v1/order/createCollection', m, { amount, symbol, chain, orderId }),
  );
  return { orderId, address: r.data.address };
}
const statusOf = (w: EvmWorld, m: MerchantCreated, orderId: string) =>
  findOrderByMerchantOrderId(w.h.rt.db, m.merchantId, orderId);

describe('reorganisations before finality (ETH, confirmations = 3)', () => {
  let w: EvmWorld;
  let m: MerchantCreated;
  beforeAll(async () => {
    w = await evmWorld(['ETH']);
    m = await w.h.merchant('V3');
  });
  afterAll(() => w?.close());

  it('rolls an order back when the paying transaction vanishes, and credits it when it comes back', async () => {
    const { orderId, address } = await collect(w, m, 'ETH', 'USDC', '8');
    const txid = await w.pay('ETH', 'USDC', address, 8_000_000n);
    await w.scan('ETH');
    expect(statusOf(w, m, orderId)?.status).toBe('PENDING_CONFIRMATION');

    const client = w.devnet.get('ETH').client;
    await reorg(client, 1); // the block with the payment is replaced by an empty one
    const summary = await w.scan('ETH');
    expect(summary.reorg).toBe(true);
    const rolledBack = statusOf(w, m, orderId);
    expect(rolledBack?.status).toBe('INIT');
    expect(rolledBack?.receivedBase).toBe(0n);
    expect(transfersOfChain(w.h.rt.db, 'ETH').find((t) => t.txid === txid)?.status).toBe('orphaned');

    // The same payment lands again in a new block: credited once, then final.
    const again = await w.pay('ETH', 'USDC', address, 8_000_000n);
    await w.mine('ETH', 3);
    await w.scan('ETH');
    const done = statusOf(w, m, orderId);
    expect(done?.status).toBe('SUCCESS');
    expect(done?.actualAmountBase).toBe(8_000_000n);
    expect(done?.transaction?.txid).toBe(again);
  });

  it('follows a transaction that a reorg moves to another block', async () => {
    const { orderId, address } = await collect(w, m, 'ETH', 'USDC', '3');
    const txid = await w.pay('ETH', 'USDC', address, 3_000_000n);
    await w.scan('ETH');
    const client = w.devnet.get('ETH').client;
    const { replaced } = await reorg(client, 1, { transactions: [{ hash: txid, blockOffset: 0 }] });
    await w.scan('ETH');
    const moved = statusOf(w, m, orderId);
    expect(moved?.status).toBe('PENDING_CONFIRMATION');
    const rows = transfersOfChain(w.h.rt.db, 'ETH').filter((t) => t.txid === txid && t.status !== 'orphaned');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.blockHash).toBe(replaced[0]?.newHash);
    await w.mine('ETH', 3);
    await w.scan('ETH');
    expect(statusOf(w, m, orderId)).toMatchObject({ status: 'SUCCESS', actualAmountBase: 3_000_000n });
  });

  it('never un-credits a final payment, even if the chain later rewrites deeper than finality', async () => {
    const { orderId, address } = await collect(w, m, 'ETH', 'USDC', '4');
    await w.pay('ETH', 'USDC', address, 4_000_000n);
    await w.mine('ETH', 3);
    await w.scan('ETH');
    expect(statusOf(w, m, orderId)?.status).toBe('SUCCESS');
    await reorg(w.devnet.get('ETH').client, 5);
    await w.scan('ETH');
    expect(statusOf(w, m, orderId)).toMatchObject({ status: 'SUCCESS', actualAmountBase: 4_000_000n });
  });
});

describe('a payment split across two transactions in one block (AVAX_C_CHAIN, 1 confirmation)', () => {
  let w: EvmWorld;
  let m: MerchantCreated;
  beforeAll(async () => {
    w = await evmWorld(['AVAX_C_CHAIN'], { noMining: true, confirmations: 1 });
    m = await w.h.merchant('V3');
  });
  afterAll(() => w?.close());

  it('credits both transfers (distinct log indexes) and settles on their sum', async () => {
    const { orderId, address } = await collect(w, m, 'AVAX_C_CHAIN', 'USDT', '10');
    const a = await w.pay('AVAX_C_CHAIN', 'USDT', address, 6_000_000n);
    const b = await w.pay('AVAX_C_CHAIN', 'USDT', address, 4_000_000n);
    await w.mine('AVAX_C_CHAIN', 1);
    await w.scan('AVAX_C_CHAIN');
    const done = statusOf(w, m, orderId);
    expect(done).toMatchObject({ status: 'SUCCESS', actualAmountBase: 10_000_000n });
    const rows = transfersOfChain(w.h.rt.db, 'AVAX_C_CHAIN').filter((t) => t.txid === a || t.txid === b);
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.blockNum)).size).toBe(1);
  });
});
