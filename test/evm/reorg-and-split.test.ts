import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transfersOfChain } from '../../src/db/repositories/chain-scan.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import { reorg } from '../../src/devnet/evm/reorg.ts';
import { REORG_REVERT_REASON } from '../../src/domain/collection-progress.ts';
import { collectMetrics } from '../../src/services/collect-metrics.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { listTokens } from '../../src/services/resolve-token.ts';
import { scanChain } from '../../src/services/scan-chain/scan-chain.ts';
import { type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { body } from '../helpers/harness.ts';
import { hookedAdapter } from '../helpers/hooked-adapter.ts';

let n = 0;
async function collect(w: EvmWorld, m: MerchantCreated, chain: string, symbol: string, amount: string) {
  const orderId = `r-${++n}`;
  const r = await body<{ address: string }>(
    await w.h.post('/v1/order/createCollection', m, { amount, symbol, chain, orderId }),
  );
  return { orderId, address: r.data.address };
}
const statusOf = (w: EvmWorld, m: MerchantCreated, orderId: string) =>
  findOrderByMerchantOrderId(w.h.db, m.merchantId, orderId);
const eventsOf = (w: EvmWorld, orderRef: string) =>
  w.h.db
    .select()
    .from(webhookEvents)
    .all()
    .filter((e) => e.orderRef === orderRef)
    .map((e) => ({
      type: e.notifyType,
      data: JSON.parse(e.data) as { status: string; reason: string | null },
    }));

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
    expect(rolledBack?.reason).toBe(REORG_REVERT_REASON);
    expect(transfersOfChain(w.h.db, 'ETH').find((t) => t.txid === txid)?.status).toBe('orphaned');
    // the merchant hears of the fall back, with the order's new state and why
    const events = eventsOf(w, rolledBack?.id ?? '');
    expect(events.map((e) => e.type)).toEqual(['ORDER_PENDING_CONFIRMATION', 'ORDER_REVERTED']);
    expect(events[1]?.data).toMatchObject({
      orderId,
      status: 'INIT',
      reason: 'The payment was removed by a chain reorganisation.',
      transaction: { txid, status: 'FAILED', confirmedNum: 0 },
    });

    // The same payment lands again in a new block: credited once, then final.
    const again = await w.pay('ETH', 'USDC', address, 8_000_000n);
    await w.mine('ETH', 3);
    await w.scan('ETH');
    const done = statusOf(w, m, orderId);
    expect(done?.status).toBe('SUCCESS');
    expect(done?.actualAmountBase).toBe(8_000_000n);
    expect(done?.transaction?.txid).toBe(again);
    expect(done?.reason).toBeNull();
    expect(eventsOf(w, done?.id ?? '').map((e) => e.type)).toEqual([
      'ORDER_PENDING_CONFIRMATION',
      'ORDER_REVERTED',
      'ORDER_SUCCESS',
    ]);
  });

  it('logs a reorganisation at warn with its depth, heights and orders, and counts it in /metrics', async () => {
    const { orderId, address } = await collect(w, m, 'ETH', 'USDC', '2');
    await w.pay('ETH', 'USDC', address, 2_000_000n);
    await w.mine('ETH', 1);
    await w.scan('ETH');
    const head = Number(await w.devnet.get('ETH').client.getBlockNumber({ cacheTime: 0 }));
    const before = await collectMetrics(w.h.rt);
    const count = (text: string) =>
      Number(/^kassa_chain_reorgs_total\{chain="ETH"\} (\d+)$/m.exec(text)?.[1] ?? Number.NaN);

    await reorg(w.devnet.get('ETH').client, 2); // the payment's block and the next one
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const tokens = (await listTokens(w.h.rt)).filter((t) => t.chain === 'ETH');
    const adapter = w.h.rt.adapters.get('ETH');
    if (!adapter) throw new Error('no ETH adapter');
    await scanChain({ ...w.h.rt, logger }, adapter, tokens, new AbortController().signal);

    const warn = lines.find((l) => l.level === 40 && String(l.msg).startsWith('chain reorganisation'));
    expect(warn).toMatchObject({
      chain: 'ETH',
      depth: 2,
      checkpoint: head,
      forkedAfter: head - 2,
      rescanFrom: head - 1,
      orders: [orderId],
    });
    const after = await collectMetrics(w.h.rt);
    expect(count(before)).toBeGreaterThanOrEqual(0);
    expect(count(after)).toBe(count(before) + 1);
    expect(after).toMatch(/^kassa_chain_last_reorg_depth_blocks\{chain="ETH"\} 2$/m);
  });

  it('moves a transfer whose block left the chain just before it became final to its new block, without a rollback', async () => {
    const { orderId, address } = await collect(w, m, 'ETH', 'USDC', '5');
    const txid = await w.pay('ETH', 'USDC', address, 5_000_000n);
    const client = w.devnet.get('ETH').client;
    const paidIn = Number(await client.getBlockNumber({ cacheTime: 0 }));
    await w.scan('ETH');
    expect(statusOf(w, m, orderId)?.status).toBe('PENDING_CONFIRMATION');
    await w.mine('ETH', 4); // the payment's block is final at the next pass

    // The chain reorganises after the pass proved its checkpoint and scanned, right when it checks
    // the payment's block before promoting it: the transaction is mined again one block later.
    const inner = w.h.rt.adapters.get('ETH');
    if (!inner) throw new Error('no ETH adapter');
    let scanned = false;
    let moved = false;
    const adapter = hookedAdapter(inner, async (method, args) => {
      if (method === 'scan') scanned = true;
      if (method === 'block' && scanned && !moved && args[0] === paidIn) {
        moved = true;
        await reorg(client, 5, { transactions: [{ hash: txid, blockOffset: 1 }] });
      }
    });
    const tokens = (await listTokens(w.h.rt)).filter((t) => t.chain === 'ETH');
    await scanChain(w.h.rt, adapter, tokens, new AbortController().signal);
    expect(moved).toBe(true);

    const done = statusOf(w, m, orderId);
    expect(done).toMatchObject({ status: 'SUCCESS', actualAmountBase: 5_000_000n });
    expect(done?.transaction).toMatchObject({ txid, blockNum: paidIn + 1 });
    const receipt = await client.getTransactionReceipt({ hash: txid });
    const rows = transfersOfChain(w.h.db, 'ETH').filter((t) => t.txid === txid);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'final', blockNum: paidIn + 1, blockHash: receipt.blockHash });
    expect(eventsOf(w, done?.id ?? '').map((e) => e.type)).toEqual([
      'ORDER_PENDING_CONFIRMATION',
      'ORDER_SUCCESS',
    ]);
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
    const rows = transfersOfChain(w.h.db, 'ETH').filter((t) => t.txid === txid && t.status !== 'orphaned');
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
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const tokens = (await listTokens(w.h.rt)).filter((t) => t.chain === 'ETH');
    const adapter = w.h.rt.adapters.get('ETH');
    if (!adapter) throw new Error('no ETH adapter');
    await scanChain({ ...w.h.rt, logger }, adapter, tokens, new AbortController().signal);
    expect(statusOf(w, m, orderId)).toMatchObject({ status: 'SUCCESS', actualAmountBase: 4_000_000n });
    // the operator is told, at error level, that the chain went back on what was final
    expect(lines.filter((l) => l.level === 50).map((l) => l.msg)).toContain(
      'the chain replaced a block Kassa had taken as final; transfers credited as final stay credited',
    );
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
    const rows = transfersOfChain(w.h.db, 'AVAX_C_CHAIN').filter((t) => t.txid === a || t.txid === b);
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.blockNum)).size).toBe(1);
  });
});
