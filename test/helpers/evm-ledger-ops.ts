import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { deepMerge } from '../../src/config/load.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { devnetChainConfig, type EvmWorld } from './evm-chain.ts';
import { TEST_MASTER_KEY, TEST_MNEMONIC } from './harness.ts';

/**
 * The environment a `kassa …` subprocess needs to work on the world's database and devnet: a
 * config file (the devnet's chains, with `overrides`) written beside the database, the test
 * mnemonic and master key. `CONFIG` holds the file's path, for `--config`.
 */
export function cliEnv(w: EvmWorld, overrides: Record<string, unknown> = {}): Record<string, string> {
  const configFile = join(w.h.dir, 'kassa.json');
  writeFileSync(configFile, JSON.stringify(deepMerge(devnetChainConfig(w.devnet), overrides)));
  return {
    KASSA_DB: join(w.h.dir, 'kassa.db'),
    KASSA_MNEMONIC: TEST_MNEMONIC,
    KASSA_MASTER_KEY: TEST_MASTER_KEY,
    CONFIG: configFile,
  };
}

/** One poll, the blocks the confirmations need, another poll: what was paid is final in Kassa. */
export async function scanToFinal(w: EvmWorld, blocks = 4): Promise<void> {
  await w.scan('ETH');
  await w.mine('ETH', blocks);
  await w.scan('ETH');
}

/**
 * Creates payouts on ETH for merchant `m` (orderIds `${prefix}-1`, … counting on from `first`) to
 * fresh receivers, then runs payout ticks and mines until every one is SUCCESS; resolves with
 * their orderIds. Throws when they do not all succeed within 20 passes.
 */
export async function payOutAll(
  w: EvmWorld,
  m: MerchantCreated,
  amounts: { amount: string; symbol: 'USDT' | 'USDC' | 'ETH' }[],
  options: { prefix?: string; first?: number } = {},
): Promise<string[]> {
  const ids: string[] = [];
  let n = options.first ?? 0;
  for (const { amount, symbol } of amounts) {
    const orderId = `${options.prefix ?? 'p'}-${++n}`;
    const res = await w.h.post('/v1/order/createPayout', m, {
      amount,
      symbol,
      chain: 'ETH',
      orderId,
      receiveAddress: `0x${(0x1000 + n).toString(16).padStart(40, '0')}`,
    });
    expect(res.status).toBe(200);
    ids.push(orderId);
  }
  for (let pass = 0; pass < 20; pass++) {
    await w.payouts('ETH');
    await w.mine('ETH', 4);
    await w.payouts('ETH');
    const statuses = ids.map((id) => findOrderByMerchantOrderId(w.h.db, m.merchantId, id)?.status);
    if (statuses.every((s) => s === 'SUCCESS')) return ids;
  }
  throw new Error('payouts did not all succeed');
}
