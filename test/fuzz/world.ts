import { afterAll, beforeAll, expect } from 'vitest';
import { adjustLedger } from '../../src/services/manage-ledger.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { createMerchant } from '../../src/services/manage-merchants.ts';
import { type Harness, makeHarness } from '../helpers/harness.ts';

/**
 * The world the endpoint fuzzing runs in (issues 13 and 14): a real migrated database behind the app
 * in process, limits generous enough that most requests reach the code behind them, interface
 * merchants (two V3, one V2) and XPay-mode merchants (V3, V2), three collections (K-1 on TRON, K-2 on
 * ETH, K-3 on SUI) and a payout (KP-1), with funded ledgers.
 */
export interface FuzzWorld {
  h: Harness;
  m: MerchantCreated;
  /** Another V3 merchant: its signs must never open `m`'s orders. */
  other: MerchantCreated;
  v2: MerchantCreated;
  /** Merchants in XPay mode. */
  xm: MerchantCreated;
  xv2: MerchantCreated;
}

/**
 * Builds the fuzz world before the file's tests (and closes it after them). The fields are filled in
 * by `beforeAll`: read them inside tests and arbitraries, never at module load.
 */
export function useFuzzWorld(): FuzzWorld {
  const w = {} as FuzzWorld;
  beforeAll(async () => {
    w.h = await makeHarness({
      // Generous limits, so that most requests reach the code behind them (default-limits.test.ts
      // fuzzes with the default limits).
      rateLimits: Object.fromEntries(
        [
          'createCollection',
          'createPayout',
          'getBalance',
          'status',
          'pay',
          'getOrderStatus',
          'supportSymbols',
        ].map((n) => [n, { limit: 1_000_000, windowSeconds: 1 }]),
      ),
      auth: { failedAttempts: { limit: 1_000_000, windowSeconds: 1 } },
      trustProxy: ['127.0.0.0/8'],
    });
    const h = w.h;
    w.m = await h.merchant('V3');
    w.other = await h.merchant('V3');
    w.v2 = await h.merchant('V2');
    w.xm = await createMerchant(h.rt, { kind: 'V3', compat: 'xpay' });
    w.xv2 = await createMerchant(h.rt, { kind: 'V2', compat: 'xpay' });
    await adjustLedger(h.rt, {
      merchantId: w.xm.merchantId,
      chain: 'TRON',
      symbol: 'USDT',
      amount: '1000',
      reason: 'fuzz',
    });
    for (const [orderId, chain, symbol] of [
      ['K-1', 'TRON', 'USDT'],
      ['K-2', 'ETH', 'USDC'],
      ['K-3', 'SUI', 'USDC'],
    ] as const) {
      const res = await h.post('/v1/order/createCollection', w.m, { amount: '5', symbol, chain, orderId });
      expect(res.status).toBe(200);
    }
    // the merchant's balance funds its payouts (the ledger of issue 11)
    await adjustLedger(h.rt, {
      merchantId: w.m.merchantId,
      chain: 'TRON',
      symbol: 'USDT',
      amount: '1000',
      reason: 'fuzz',
    });
    const payout = await h.post('/v1/order/createPayout', w.m, {
      amount: '1',
      symbol: 'USDT',
      chain: 'TRON',
      orderId: 'KP-1',
      receiveAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    });
    expect(payout.status).toBe(200);
  });
  afterAll(() => w.h?.close());
  return w;
}
