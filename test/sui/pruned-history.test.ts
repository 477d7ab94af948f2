import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BlockRef, ObservedTransfer, TokenSpec } from '../../src/chains/port.ts';
import { createSuiAdapter, type SuiAdapter } from '../../src/chains/sui/adapter.ts';
import { getCursor } from '../../src/db/repositories/chain-scan.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { listTokens } from '../../src/services/resolve-token.ts';
import { scanChain } from '../../src/services/scan-chain/scan-chain.ts';
import { body } from '../helpers/harness.ts';
import { type SuiWorld, suiAdapterFor, suiWorld, USDC } from '../helpers/sui-chain.ts';

/** A node that pruned every checkpoint below `lowest` (Sui full nodes keep a window of history). */
function prunedNode(inner: SuiAdapter): SuiAdapter & { lowest: number } {
  const pruned = {
    ...inner,
    lowest: 0,
    async block(height: number): Promise<BlockRef | null> {
      return height < pruned.lowest ? null : inner.block(height);
    },
    async scan(
      from: number,
      to: number,
      addresses: ReadonlySet<string>,
      tokens: TokenSpec[],
    ): Promise<ObservedTransfer[]> {
      if (from < pruned.lowest) throw new Error(`the RPC has no checkpoint ${from} (pruned)`);
      return inner.scan(from, to, addresses, tokens);
    },
  };
  return pruned;
}

let w: SuiWorld;
beforeAll(async () => {
  w = await suiWorld();
});
afterAll(() => w?.close());

it('starts the first scan inside the history a pruning node still serves, and credits the payment', async () => {
  for (let i = 0; i < 60; i++) w.seal();
  const pruned = prunedNode(suiAdapterFor(w, (s, l) => createSuiAdapter(s, l)));
  const head = (await pruned.heads()).head;
  pruned.lowest = Math.floor(head * 0.8); // the first probe of the search, half-way, is pruned
  const m = await w.h.merchant('V3');
  w.h.clock.advance(120_000); // the order is younger than every checkpoint so far
  const r = await body<{ address: string }>(
    await w.h.post('/v1/order/createCollection', m, {
      amount: '1',
      symbol: 'USDC',
      chain: 'SUI',
      orderId: 'p-1',
    }),
  );
  await w.pay('USDC', r.data.address, USDC);
  const tokens = (await listTokens(w.h.rt)).filter((t) => t.chain === 'SUI');
  await scanChain(w.h.rt, pruned, tokens, new AbortController().signal);
  expect(getCursor(w.h.db, 'SUI')?.height).toBeGreaterThanOrEqual(pruned.lowest);
  expect(findOrderByMerchantOrderId(w.h.db, m.merchantId, 'p-1')?.status).toBe('SUCCESS');
});
