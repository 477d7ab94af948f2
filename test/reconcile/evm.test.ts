import { pino } from 'pino';
import { type Address, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDepositAddress } from '../../src/db/repositories/deposit-addresses.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { lastReconciliation } from '../../src/db/repositories/reconciliation.ts';
import { tokenBalance, transferToken } from '../../src/devnet/evm/tokens.ts';
import { createKeyRing } from '../../src/keys/key-ring.ts';
import { collectMetrics } from '../../src/services/collect-metrics.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { reconcile } from '../../src/services/reconcile/reconcile.ts';
import { reconcileJob } from '../../workers/jobs/reconcile.ts';
import { freePort, kassa } from '../helpers/cli.ts';
import { type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { cliEnv, payOutAll, scanToFinal } from '../helpers/evm-ledger-ops.ts';
import { ethAdapterOn } from '../helpers/evm-node.ts';
import { body, TEST_MNEMONIC } from '../helpers/harness.ts';

/**
 * `kassa reconcile` on anvil with the real ERC-20s (USDT on ETH returns nothing from transfer):
 * after 100 collections paid exactly, partly, over, in the wrong token and in ETH itself, and payouts in
 * USDT and ETH from the hot wallet, every address holds what the records say; when funds leave the
 * hot wallet or a deposit address behind Kassa's back, the difference is reported with its
 * address, token and records, and the command exits 1.
 */
let w: EvmWorld;
let m: MerchantCreated;
let env: Record<string, string>;
const USDT = 1_000_000n;
const keys = createKeyRing(TEST_MNEMONIC);
const stranger = '0x5555555555555555555555555555555555555555' as Address;
const paidAddresses: string[] = [];
let payoutCount = 0;

beforeAll(async () => {
  w = await evmWorld(['ETH'], { overrides: { orders: { handlingFee: '0.10' } } });
  m = await w.h.merchant('V3');
  env = cliEnv(w);
}, 120_000);
afterAll(() => w?.close());

const run = () => reconcile(w.h.rt, w.h.rt.adapters, { chain: 'ETH' });

function orderStatus(orderId: string) {
  return findOrderByMerchantOrderId(w.h.db, m.merchantId, orderId)?.status;
}

/** Payouts until every one is final on chain, numbered on from the earlier ones. */
async function payOut(amounts: { amount: string; symbol: 'USDT' | 'ETH' }[]) {
  await payOutAll(w, m, amounts, { first: payoutCount });
  payoutCount += amounts.length;
}

describe('kassa reconcile on anvil', () => {
  it('finds every unit accounted for after 100 orders with payments and payouts', async () => {
    for (let i = 0; i < 100; i++) {
      const orderId = `c-${i}`;
      const native = i % 25 === 0; // four orders in ETH itself
      const r = await body<{ address: string }>(
        await w.h.post('/v1/order/createCollection', m, {
          amount: native ? '0.01' : '10',
          symbol: native ? 'ETH' : 'USDT',
          chain: 'ETH',
          orderId,
        }),
      );
      const to = r.data.address;
      if (native) await w.pay('ETH', 'native', to, parseEther('0.01'));
      else if (i < 70) await w.pay('ETH', 'USDT', to, 10n * USDT);
      else if (i < 80)
        await w.pay('ETH', 'USDT', to, 4n * USDT); // partial: waits, the money stays
      else if (i < 90)
        await w.pay('ETH', 'USDT', to, 13n * USDT + 7n); // over
      else if (i < 95) await w.pay('ETH', 'USDC', to, 10n * USDT); // wrong token: unattributed
      // the last five stay unpaid
      if (i < 70 && !native) paidAddresses.push(to);
    }
    await scanToFinal(w);
    expect(orderStatus('c-0')).toBe('SUCCESS');
    expect(orderStatus('c-85')).toBe('SUCCESS');

    await w.h.fund(m, 'ETH', 'ETH', '1');
    await payOut([
      ...Array.from({ length: 10 }, (_, i) => ({ amount: `${i + 1}`, symbol: 'USDT' as const })),
      { amount: '0.05', symbol: 'ETH' },
    ]);
    await scanToFinal(w);

    const first = await run();
    expect(first.differences).toEqual([]);
    expect(first).toMatchObject({ ok: true, unexplained: 0, inFlight: 0 });
    expect(first.addresses).toBe(101); // 100 deposit addresses and the hot wallet
    const usdt = first.tokens.find((t) => t.symbol === 'USDT');
    // 67 × 10 + 9 × 4 + 10 × 13.000007 on the deposit addresses, nothing swept yet
    expect(usdt).toMatchObject({
      onDeposits: '836.00007',
      expectedOnDeposits: '836.00007',
      unexplained: '0.00',
    });
    expect(first.tokens.find((t) => t.symbol === 'ETH')?.onDeposits).toBe('0.04');
    expect(first.tokens.find((t) => t.symbol === 'USDC')?.onDeposits).toBe('50.00');

    // More payouts after the hot wallet's float was taken: the records explain every unit that left.
    await payOut(Array.from({ length: 10 }, () => ({ amount: '2.5', symbol: 'USDT' as const })));
    await scanToFinal(w);
    const second = await run();
    expect(second.differences).toEqual([]);
    expect(second.ok).toBe(true);
    const stored = await lastReconciliation(w.h.db);
    expect(stored).toMatchObject({ id: second.id, addresses: 101, unexplained: 0, chains: ['ETH'] });

    const cli = kassa(['reconcile', '--json', '--config', env.CONFIG as string], env);
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ ok: true, unexplained: 0, addresses: 101 });
  }, 300_000);

  it('reports USDT taken out of the hot wallet behind Kassa’s back, and exits 1', async () => {
    const c = w.devnet.get('ETH');
    const hot = keys.hotWallet('ETH');
    await transferToken(c.client, {
      from: privateKeyToAccount(`0x${hot.privateKey.toString('hex')}`),
      token: c.tokens.USDT.address,
      to: stranger,
      amount: 7n * USDT,
    });
    await scanToFinal(w);
    const report = await run();
    expect(report.ok).toBe(false);
    const line = report.differences.find((d) => d.role === 'hot' && d.symbol === 'USDT');
    expect(line).toMatchObject({ status: 'unexplained', address: hot.address, difference: '-7.00' });
    // The gas of that transfer left the wallet without a record too.
    expect(report.differences.find((d) => d.role === 'hot' && d.symbol === 'ETH')?.status).toBe(
      'unexplained',
    );
    expect(report.tokens.find((t) => t.symbol === 'USDT')?.unexplained).toBe('-7.00');

    const cli = kassa(['reconcile', '--config', env.CONFIG as string], env);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain('-7.00');

    // The worker's scheduled run logs each unexplained difference at error level, and /metrics shows it.
    const logged: { level: number; msg: string; address?: string; symbol?: string; difference?: string }[] =
      [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    const summary = await reconcileJob({ ...w.h.rt, logger }, w.h.rt.adapters)();
    expect(summary.unexplained).toBe(2);
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 50,
        msg: 'reconcile: unexplained difference',
        address: hot.address,
        symbol: 'USDT',
        difference: '-7.00',
      }),
    );
    const metrics = await collectMetrics(w.h.rt);
    expect(metrics).toContain('kassa_reconcile_unexplained{chain="ETH"} 2');
    expect(metrics).toContain('kassa_reconcile_chain_checked{chain="ETH"} 1');
  }, 120_000);

  it('reports a deposit drained by its own key, with the order and the deposit it received', async () => {
    const c = w.devnet.get('ETH');
    const victim = paidAddresses[2] as string;
    const row = findDepositAddress(w.h.db, victim);
    if (!row) throw new Error('no deposit row');
    const thief = privateKeyToAccount(`0x${keys.depositKey('evm', row.idx).toString('hex')}`);
    expect(thief.address).toBe(victim);
    await w.pay('ETH', 'native', victim, parseEther('0.01')); // gas for the thief (the scanner records it)
    await transferToken(c.client, {
      from: thief,
      token: c.tokens.USDT.address,
      to: stranger,
      amount: 10n * USDT,
    });
    expect(await tokenBalance(c.client, c.tokens.USDT.address, victim as Address)).toBe(0n);
    await scanToFinal(w);
    const report = await run();
    const line = report.differences.find((d) => d.address === victim && d.symbol === 'USDT');
    expect(line).toMatchObject({
      status: 'unexplained',
      role: 'deposit',
      orderId: 'c-3',
      expected: '10.00',
      actual: '0.00',
      difference: '-10.00',
      records: [expect.objectContaining({ kind: 'deposit', orderId: 'c-3', amount: '10.00' })],
    });
    expect(report.unexplained).toBeGreaterThanOrEqual(3);
    expect(report.merchants).toContainEqual(
      expect.objectContaining({ merchantId: m.merchantId, symbol: 'USDT', onDepositAddresses: '826.00007' }),
    );
  }, 120_000);

  it('reports a chain it cannot read with the reason, and is not ok', async () => {
    const dead = await ethAdapterOn(w.devnet, { rpc: [`http://127.0.0.1:${await freePort()}`] });
    const report = await reconcile(w.h.rt, new Map([['ETH', dead]]), { chain: 'ETH' });
    expect(report.ok).toBe(false);
    expect(report.chains).toEqual([
      expect.objectContaining({
        chain: 'ETH',
        addresses: 0,
        error: expect.stringMatching(/^ETH: node unreachable at /),
      }),
    ]);
    expect(report.differences).toEqual([]);
  }, 60_000);
});
