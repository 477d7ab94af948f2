import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { createKeyRing } from '../../src/keys/key-ring.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { reconcile } from '../../src/services/reconcile/reconcile.ts';
import { body, TEST_MNEMONIC } from '../helpers/harness.ts';
import { CUSTOMER, HOT, SUN, type TronWorld, tronWorld } from '../helpers/tron-chain.ts';

/**
 * `kassa reconcile` on the fake TRON node (driven through tronweb, TRX burnt for energy and
 * bandwidth as on mainnet): after paid collections in USDT and TRX and payouts from the hot wallet,
 * nothing is unexplained; USDT sent from the hot wallet with its key outside Kassa is reported.
 */
let w: TronWorld;
let m: MerchantCreated;
const hotKey = createKeyRing(TEST_MNEMONIC).hotWallet('TRON').privateKey.toString('hex');
const run = () => reconcile(w.h.rt, w.h.rt.adapters, { chain: 'TRON' });

beforeAll(async () => {
  w = await tronWorld();
  m = await w.h.merchant('V3');
});
afterAll(() => w?.close());

async function settle() {
  await w.scan();
  w.solidify();
  await w.scan();
}

describe('kassa reconcile on the fake TRON node', () => {
  it('accounts for every unit after collections and payouts, and reports USDT moved from the hot wallet behind Kassa’s back', async () => {
    for (let i = 0; i < 12; i++) {
      const trx = i % 4 === 0;
      const r = await body<{ address: string }>(
        await w.h.post('/v1/order/createCollection', m, {
          amount: trx ? '50' : '20',
          symbol: trx ? 'TRX' : 'USDT',
          chain: 'TRON',
          orderId: `t-${i}`,
        }),
      );
      await w.pay(trx ? 'TRX' : 'USDT', r.data.address, (trx ? 50n : i === 5 ? 21n : 20n) * SUN);
    }
    await settle();
    expect(findOrderByMerchantOrderId(w.h.db, m.merchantId, 't-1')?.status).toBe('SUCCESS');

    for (const [i, [symbol, amount]] of [
      ['USDT', '15'],
      ['USDT', '7.25'],
      ['TRX', '30'],
    ].entries()) {
      const res = await w.h.post('/v1/order/createPayout', m, {
        amount,
        symbol,
        chain: 'TRON',
        orderId: `tp-${i}`,
        receiveAddress: CUSTOMER,
      });
      expect(res.status).toBe(200);
    }
    await w.payouts();
    w.mine(1);
    await w.payouts();
    w.solidify();
    await w.payouts();
    await settle();
    expect(findOrderByMerchantOrderId(w.h.db, m.merchantId, 'tp-2')?.status).toBe('SUCCESS');

    const clean = await run();
    expect(clean.differences).toEqual([]);
    expect(clean).toMatchObject({ ok: true, unexplained: 0, addresses: 13 });
    expect(clean.tokens.find((t) => t.symbol === 'USDT')?.onDeposits).toBe('181.00');
    expect(clean.tokens.find((t) => t.symbol === 'TRX')?.onDeposits).toBe('150.00');

    await w.pay('USDT', CUSTOMER, 3n * SUN, { key: hotKey });
    w.solidify();
    await settle();
    const report = await run();
    expect(report.ok).toBe(false);
    expect(report.differences).toContainEqual(
      expect.objectContaining({
        status: 'unexplained',
        role: 'hot',
        address: HOT,
        symbol: 'USDT',
        difference: '-3.00',
      }),
    );
    // Its fee (TRX burnt for energy) left the wallet without a record as well.
    expect(report.differences).toContainEqual(
      expect.objectContaining({ status: 'unexplained', role: 'hot', symbol: 'TRX' }),
    );
  }, 120_000);
});
