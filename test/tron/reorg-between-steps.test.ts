import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ChainAdapter } from '../../src/chains/port.ts';
import { createTronAdapter } from '../../src/chains/tron/adapter.ts';
import { activeChain } from '../../src/config/active-chain.ts';
import { transfersOfChain } from '../../src/db/repositories/chain-scan.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { silentLogger } from '../../src/lib/logger.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { listTokens } from '../../src/services/resolve-token.ts';
import { scanChain } from '../../src/services/scan-chain/scan-chain.ts';
import { body } from '../helpers/harness.ts';
import { type TronWorld, tronWorld } from '../helpers/tron-chain.ts';

/*
 * An engine test (src/services/scan-chain/) on the fake TRON node: the chain reorganises BETWEEN
 * two scan steps of one pass, below the checkpoint the first step wrote. The second step's own
 * blocks are consistent (the block at its end is the same before and after), yet the blocks up to
 * the checkpoint were replaced: the payment re-included there must still be found.
 *
 * The fork is made by a wrapper around the TRON adapter, right after the first step read the block
 * at its end for the second time.
 */

let w: TronWorld;
let m: MerchantCreated;

beforeAll(async () => {
  w = await tronWorld({ maxLogRange: 2 });
  m = await w.h.merchant('V3');
});
afterAll(() => w?.close());

it('finds a payment that a reorganisation between two scan steps moved below the checkpoint', async () => {
  const settings = activeChain(w.h.rt.config, 'TRON');
  const scanner = createTronAdapter(settings, silentLogger());
  const tokens = (await listTokens(w.h.rt)).filter((t) => t.chain === 'TRON');
  const r = await body<{ address: string }>(
    await w.h.post('/v1/order/createCollection', m, {
      amount: '4',
      symbol: 'USDT',
      chain: 'TRON',
      orderId: 'rb-1',
    }),
  );
  await w.scan(); // the checkpoint is at the head
  const c = w.node.head();
  w.mine(1);
  const txid = await w.pay('USDT', r.data.address, 4_000_000n); // in block c + 2
  w.mine(2); // head c + 4: two steps of two blocks

  let afterFirstStep = false;
  let endReads = 0;
  const adapter: ChainAdapter = {
    chain: 'TRON',
    family: 'tron',
    connect: () => scanner.connect(),
    heads: () => scanner.heads(),
    scanStep: () => scanner.scanStep(),
    scan: (from, to, addresses, t) => scanner.scan(from, to, addresses, t),
    balance: (a, t) => scanner.balance(a, t),
    payoutFeeEstimate: (a, b, t, x) => scanner.payoutFeeEstimate(a, b, t, x),
    signPayout: (input) => scanner.signPayout(input),
    broadcast: (s) => scanner.broadcast(s),
    lookup: (h) => scanner.lookup(h),
    judgeSlot: (i) => scanner.judgeSlot(i),
    async block(height) {
      const ref = await scanner.block(height);
      if (height === c + 2 && !afterFirstStep && ++endReads === 2) {
        // the first step [c+1, c+2] is written; before the second one starts, a fork replaces
        // c+1 … c+4 and the payment lands again in the new block c+1
        afterFirstStep = true;
        w.node.fork(4, { reinclude: true });
        w.mine(4);
      }
      return ref;
    },
  };
  await scanChain(w.h.rt, adapter, tokens, new AbortController().signal);
  expect(afterFirstStep).toBe(true);
  const next = await scanChain(w.h.rt, adapter, tokens, new AbortController().signal); // the next poll
  expect(next.reorg).toBe(true);
  w.solidify();
  await scanChain(w.h.rt, adapter, tokens, new AbortController().signal);
  const rows = transfersOfChain(w.h.db, 'TRON').filter((t) => t.txid === txid);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ blockNum: c + 1, status: 'final' });
  expect(findOrderByMerchantOrderId(w.h.db, m.merchantId, 'rb-1')).toMatchObject({
    status: 'SUCCESS',
    actualAmountBase: 4_000_000n,
  });
});
