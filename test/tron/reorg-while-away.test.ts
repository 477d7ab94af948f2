import { TronWeb } from 'tronweb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { transfersOfChain } from '../../src/db/repositories/chain-scan.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { body } from '../helpers/harness.ts';
import { type TronWorld, tronWorld } from '../helpers/tron-chain.ts';

/*
 * Issue 19, scenario A on TRON (finality = the solidified block, 19 behind the head): Kassa sees a
 * payment before solidification; while it is not looking, a fork drops the payment's block, the
 * same signed transaction is included two blocks later, and the chain grows until every height Kassa
 * wrote its checkpoint at is solidified. Kassa must find that its checkpoint left the chain and
 * credit the payment in its new block.
 */

let w: TronWorld;
let m: MerchantCreated;

beforeAll(async () => {
  w = await tronWorld();
  m = await w.h.merchant('V3');
});
afterAll(() => w?.close());

it('credits a payment that a fork moved while Kassa was away, once the new block is solidified', async () => {
  const r = await body<{ address: string }>(
    await w.h.post('/v1/order/createCollection', m, {
      amount: '7',
      symbol: 'USDT',
      chain: 'TRON',
      orderId: 'away-1',
    }),
  );
  await w.scan();
  const txid = await w.pay('USDT', r.data.address, 7_000_000n);
  const paidIn = w.node.head();
  w.mine(2);
  await w.scan();
  const order = () => findOrderByMerchantOrderId(w.h.db, m.merchantId, 'away-1');
  expect(order()?.status).toBe('PENDING_CONFIRMATION');

  // Kassa stops looking. The payment's block and the two after it are forked away; the very same
  // signed transaction is broadcast again and mined two blocks later; the chain then solidifies.
  const tronWeb = new TronWeb({ fullHost: w.node.url });
  const signed = await tronWeb.trx.getTransaction(txid);
  w.node.fork(3);
  w.mine(2);
  const again = await tronWeb.trx.sendRawTransaction(
    signed as unknown as Parameters<typeof tronWeb.trx.sendRawTransaction>[0],
  );
  expect(again.result).toBe(true);
  w.mine(1);
  w.solidify();
  const info = await tronWeb.trx.getTransactionInfo(txid);
  expect(info.blockNumber).toBe(paidIn + 2);

  const summary = await w.scan();
  expect(summary.reorg).toBe(true);
  expect(order()).toMatchObject({ status: 'SUCCESS', actualAmountBase: 7_000_000n });
  expect(order()?.transaction).toMatchObject({ txid, blockNum: paidIn + 2 });
  const rows = transfersOfChain(w.h.db, 'TRON').filter((t) => t.txid === txid);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ status: 'final', blockNum: paidIn + 2 });
  const events = w.h.db
    .select()
    .from(webhookEvents)
    .all()
    .filter((e) => e.orderRef === order()?.id)
    .map((e) => e.notifyType);
  expect(events).toEqual(['ORDER_PENDING_CONFIRMATION', 'ORDER_SUCCESS']);
});
