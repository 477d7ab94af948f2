import { TronWeb } from 'tronweb';
import { expect } from 'vitest';
import { createAdminUser } from '../../src/services/admin-accounts.ts';
import { deliverWebhooks } from '../../src/services/deliver-webhooks.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { addToken } from '../../src/services/manage-tokens.ts';
import { reconcile } from '../../src/services/reconcile/reconcile.ts';
import { runSweeps } from '../../src/services/run-sweeps.ts';
import { body } from './harness.ts';
import { type TronWorld, tronWorld } from './tron-chain.ts';

/** A shop whose SQLite database holds a little of everything Kassa writes. */
export interface FilledShop {
  w: TronWorld;
  /** Has a callback URL (its webhook events are attempted) and a funded balance. */
  shop: MerchantCreated;
  /** No callback URL, nothing paid. */
  quiet: MerchantCreated;
  /** The merchant order ids of `shop`: collections (paid, over-paid, unpaid) and a payout. */
  orderIds: string[];
}

// A first TRON sweep costs about 2.6 TRX; at 0.3 dollars a TRX that passes a 50 % fee ratio on 10 USDT.
const SWEEP = { destination: 'hot', minAmount: { USDT: '1' }, nativeValue: '0.3', maxFeeRatio: 0.5 };

/**
 * Builds, through the real services on the fake TRON node, a SQLite database with merchants, paid
 * and unpaid collections (transfers, checkpoints, block hashes), ledger entries and balances with
 * odd amounts, a payout sent to SUCCESS, a sweep (one marked held), webhook events with failed
 * attempts, a reconciliation run, an added token, a dashboard user and the key fingerprint. The
 * world stays open: its harness answers as the SQLite store.
 */
export async function filledTronShop(): Promise<FilledShop> {
  const w = await tronWorld({ overrides: { chains: { TRON: { sweep: SWEEP } } } });
  const { h } = w;
  // Nobody listens on port 9: every delivery attempt fails and is recorded.
  const shop = await h.merchant('V3', 'http://127.0.0.1:9/hook');
  const quiet = await h.merchant('V2');
  await h.fund(shop, 'TRON', 'USDT', '1000.123456');
  await h.fund(shop, 'TRON', 'TRX', '50');
  const orderIds: string[] = [];
  const collect = async (orderId: string, amount: string) => {
    const r = await body<{ address: string }>(
      await h.post('/v1/order/createCollection', shop, { amount, symbol: 'USDT', chain: 'TRON', orderId }),
    );
    expect(r.code, r.msg).toBe(200);
    orderIds.push(orderId);
    return r.data.address;
  };
  await w.pay('USDT', await collect('c-paid', '10.000001'), 10_000_001n);
  await w.pay('USDT', await collect('c-over', '4'), 6_543_210n);
  await collect('c-unpaid', '7.5');
  await w.scan();
  w.solidify();
  await w.scan();

  const to = TronWeb.address.fromPrivateKey('61'.repeat(32)) as string;
  const payout = await body(
    await h.post('/v1/order/createPayout', shop, {
      amount: '12.5',
      symbol: 'USDT',
      chain: 'TRON',
      orderId: 'p-1',
      receiveAddress: to,
    }),
  );
  expect(payout.code, payout.msg).toBe(200);
  orderIds.push('p-1');
  await w.payouts();
  w.mine(1);
  await w.payouts();
  w.solidify();
  await w.payouts();

  const adapter = h.rt.adapters.get('TRON');
  if (!adapter) throw new Error('TRON has no adapter');
  for (let i = 0; i < 12 && (i === 0 || (await h.rt.db.openSweeps('TRON')).length > 0); i++) {
    await runSweeps(h.rt, adapter, new AbortController().signal, { holder: 'filled-shop' });
    w.solidify();
    await w.scan();
  }
  expect((await h.rt.db.listSweeps()).length).toBeGreaterThan(0);
  // The one boolean column: a sweep the operator must look at.
  h.db.$client.prepare('UPDATE sweeps SET held = 1 WHERE rowid = (SELECT min(rowid) FROM sweeps)').run();

  await deliverWebhooks(h.rt);
  await reconcile(h.rt, h.rt.adapters);
  const usdd = TronWeb.address.fromPrivateKey('62'.repeat(32)) as string;
  await addToken(h.rt, { chain: 'TRON', symbol: 'USDD', contract: usdd, decimals: 18 });
  await createAdminUser(h.rt, { email: 'ops@example.com', role: 'admin', password: 'correct horse battery' });
  return { w, shop, quiet, orderIds };
}
