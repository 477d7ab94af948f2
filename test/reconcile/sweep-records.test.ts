import { eq } from 'drizzle-orm';
import { type Address, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDepositAddress } from '../../src/db/repositories/deposit-addresses.ts';
import { sweepTxs } from '../../src/db/schema/sweep-txs.ts';
import { sweeps } from '../../src/db/schema/sweeps.ts';
import { transferToken } from '../../src/devnet/evm/tokens.ts';
import { createKeyRing } from '../../src/keys/key-ring.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { reconcile } from '../../src/services/reconcile/reconcile.ts';
import { type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { scanToFinal } from '../helpers/evm-ledger-ops.ts';
import { body, TEST_MNEMONIC } from '../helpers/harness.ts';

/**
 * Sweeps in the reconciliation, on anvil with the real USDT (no return value): a sweep done on
 * chain (the hot wallet tops the deposit address up with ETH, the deposit key moves its USDT to
 * the hot wallet, or to a treasury) and recorded as the sweep service records it (sweeps and
 * sweep_txs, stored before broadcast) leaves nothing unexplained: while its records say
 * `broadcast` the difference is in flight, once they say `final` every unit is where they put it.
 */
let w: EvmWorld;
let m: MerchantCreated;
const keys = createKeyRing(TEST_MNEMONIC);
const USDT = 1_000_000n;
const treasury = '0x6666666666666666666666666666666666666666' as Address;
const run = () => reconcile(w.h.rt, w.h.rt.adapters, { chain: 'ETH', all: true });
/** The hot wallet's float in USDT: what it holds beyond the records (its genesis million); a sweep never changes it. */
const hotFloat = (r: Awaited<ReturnType<typeof run>>) =>
  r.holdings?.find((h) => h.role === 'hot' && h.symbol === 'USDT')?.float;

beforeAll(async () => {
  w = await evmWorld(['ETH']);
  m = await w.h.merchant('V3');
}, 120_000);
afterAll(() => w?.close());

async function paidCollection(orderId: string, amount: bigint): Promise<string> {
  const r = await body<{ address: string }>(
    await w.h.post('/v1/order/createCollection', m, { amount: '10', symbol: 'USDT', chain: 'ETH', orderId }),
  );
  await w.pay('ETH', 'USDT', r.data.address, amount);
  return r.data.address;
}

/** Sweeps `address`'s USDT to `to` on chain, recording it first as the sweep service does (status broadcast). */
async function sweepOnChain(address: string, to: Address, kind: 'hot' | 'treasury', n: number) {
  const c = w.devnet.get('ETH');
  const hot = keys.hotWallet('ETH');
  const row = findDepositAddress(w.h.db, address);
  if (!row) throw new Error('no deposit row');
  const depositKey = privateKeyToAccount(`0x${keys.depositKey('evm', row.idx).toString('hex')}`);
  const topUp = parseEther('0.002');
  const topUpHash = await c.client.sendTransaction({
    account: privateKeyToAccount(`0x${hot.privateKey.toString('hex')}`),
    to: address as Address,
    value: topUp,
    chain: c.client.chain,
  });
  const topUpReceipt = await c.client.waitForTransactionReceipt({ hash: topUpHash });
  const moved = await transferToken(c.client, {
    from: depositKey,
    token: c.tokens.USDT.address,
    to,
    amount: 10n * USDT,
  });
  const now = w.h.clock.now();
  const id = `swp_test${n}`;
  const db = w.h.db;
  db.insert(sweeps)
    .values({
      id,
      chain: 'ETH',
      address,
      depositIndex: row.idx,
      destination: to,
      destinationKind: kind,
      symbol: 'USDT',
      tokenContract: c.tokens.USDT.address,
      decimals: 6,
      feeMode: 'topup',
      amountBase: String(10n * USDT),
      feeEstimateBase: String(topUp),
      status: 'broadcast',
      createdAt: now,
      updatedAt: now,
    })
    .run();
  const tx = (role: 'topup' | 'transfer', from: string, toAddress: string, hash: string, value: bigint) => ({
    id: `${id}_${role}`,
    sweepId: id,
    chain: 'ETH',
    role,
    fromAddress: from,
    toAddress,
    nonce: role === 'topup' ? 1 : 0,
    txHash: hash,
    rawTx: '0x',
    valueBase: String(value),
    status: 'broadcast' as const,
    createdAt: now,
    updatedAt: now,
  });
  db.insert(sweepTxs)
    .values([
      {
        ...tx('topup', hot.address, address, topUpHash, topUp),
        nonce: Number(topUpReceipt.blockNumber) + 1000,
      },
      tx('transfer', address, to, moved.transactionHash, 10n * USDT),
    ])
    .run();
  return {
    id,
    final() {
      db.update(sweeps).set({ status: 'final' }).where(eq(sweeps.id, id)).run();
      db.update(sweepTxs)
        .set({ status: 'final', blockNum: Number(topUpReceipt.blockNumber) })
        .where(eq(sweepTxs.id, `${id}_topup`))
        .run();
      // The transfer's fee as the sweep service stores it once final (the deposit address paid it).
      db.update(sweepTxs)
        .set({
          status: 'final',
          blockNum: Number(moved.blockNumber),
          feeBase: String(moved.gasUsed * moved.effectiveGasPrice),
          feePayer: address,
        })
        .where(eq(sweepTxs.id, `${id}_transfer`))
        .run();
    },
  };
}

describe('sweeps in the reconciliation', () => {
  it('is in flight while a sweep is broadcast and accounted for once it is final, to the hot wallet and to a treasury', async () => {
    const a = await paidCollection('s-1', 10n * USDT);
    const b = await paidCollection('s-2', 10n * USDT);
    await scanToFinal(w);
    expect((await run()).differences).toEqual([]); // the hot wallet's float is taken

    const toHot = await sweepOnChain(a, w.hot('ETH'), 'hot', 1);
    await scanToFinal(w);
    const during = await run();
    expect(during.unexplained).toBe(0);
    expect(during.differences).toContainEqual(
      expect.objectContaining({ address: a, symbol: 'USDT', status: 'in_flight', difference: '-10.00' }),
    );

    toHot.final();
    const after = await run();
    expect(after.differences).toEqual([]);
    expect(after.ok).toBe(true);
    expect(hotFloat(during)).toBe('1000010.00'); // the sweep landed before its record said so
    expect(hotFloat(after)).toBe('1000000.00');
    const usdt = after.tokens.find((t) => t.symbol === 'USDT');
    expect(usdt).toMatchObject({ onDeposits: '10.00', expectedOnDeposits: '10.00' });
    // The top-up left on the deposit address is what its transfer did not burn.
    const eth = after.tokens.find((t) => t.symbol === 'ETH');
    expect(eth?.onDeposits).toBe(eth?.expectedOnDeposits);
    expect(eth?.onDeposits).not.toBe('0.00');

    const toTreasury = await sweepOnChain(b, treasury, 'treasury', 2);
    toTreasury.final();
    await scanToFinal(w);
    const last = await run();
    expect(last.differences).toEqual([]);
    expect(last.tokens.find((t) => t.symbol === 'USDT')).toMatchObject({
      onDeposits: '0.00',
      sweptToTreasury: '10.00',
      owedToMerchants: '20.00',
      onHotWallet: '1000010.00', // its own million and the first sweep
      cover: '1000000.00',
    });
  }, 180_000);
});
