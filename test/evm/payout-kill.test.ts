import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Address } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listBalances, listLedgerEntries, sumLedgerEntries } from '../../src/db/repositories/ledger.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { attemptsOfOrder } from '../../src/db/repositories/payouts.ts';
import { tokenBalance } from '../../src/devnet/evm/tokens.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { spawnKassa } from '../helpers/cli.ts';
import { devnetChainConfig, type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';
import { body, TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';

/**
 * `kassa worker` killed with SIGKILL at the two moments a payout is most fragile, frozen at an exact
 * point by the fault proxy in front of anvil (no race against a sleep): after the merchant's money
 * was frozen but before the payout is signed, and after it was signed and stored but before (or
 * while) it is broadcast. Restarted, the worker pays it exactly once and the ledger debits it once.
 */
let w: EvmWorld;
let proxy: FaultProxy;
let m: MerchantCreated;
let configFile: string;
let worker: ChildProcess | null = null;
let n = 0;

beforeAll(async () => {
  w = await evmWorld(['ETH'], { confirmations: 2 });
  proxy = await startFaultProxy(w.devnet.get('ETH').url);
  m = await w.h.merchant('V3');
  await w.h.fund(m, 'ETH', 'USDC', '1000');
  configFile = join(w.h.dir, 'kassa.json');
  writeFileSync(
    configFile,
    JSON.stringify(
      devnetChainConfig(w.devnet, { confirmations: 2, pollIntervalMs: 100, rpc: () => [proxy.url] }),
    ),
  );
});
afterEach(async () => {
  if (worker && worker.exitCode === null && worker.signalCode === null) await kill(worker);
  proxy.clear();
});
afterAll(async () => {
  await proxy?.close();
  await w?.close();
});

function startWorker(): ChildProcess {
  worker = spawnKassa(['worker', '--config', configFile], {
    KASSA_DB: join(w.h.dir, 'kassa.db'),
    KASSA_MNEMONIC: TEST_MNEMONIC,
    KASSA_MASTER_KEY: TEST_MASTER_KEY,
    KASSA_LOG_LEVEL: 'warn',
  });
  return worker;
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function payout(amount: string, to: Address) {
  const orderId = `kill-${++n}`;
  const res = await w.h.post('/v1/order/createPayout', m, {
    amount,
    symbol: 'USDC',
    chain: 'ETH',
    orderId,
    receiveAddress: to,
  });
  expect((await body(res)).code).toBe(200);
  return orderId;
}

const order = (orderId: string) => {
  const o = findOrderByMerchantOrderId(w.h.db, m.merchantId, orderId);
  if (!o) throw new Error(`no order ${orderId}`);
  return o;
};

const received = (to: Address) => {
  const c = w.devnet.get('ETH');
  return tokenBalance(c.client, c.tokens.USDC.address, to);
};

/** Restarts the worker and mines until the payout is SUCCESS. */
async function restartUntilSettled(orderId: string) {
  const again = startWorker();
  await expect
    .poll(
      async () => {
        await w.devnet.get('ETH').client.mine({ blocks: 1 });
        return order(orderId).status;
      },
      { timeout: 30_000, interval: 200 },
    )
    .toBe('SUCCESS');
  await kill(again);
}

/** One freeze and one debit for the payout; every balance equal to the sum of its entries. */
async function expectLedgerSettled(orderId: string, total: bigint) {
  const entries = (await listLedgerEntries(w.h.db, { merchantId: m.merchantId })).filter(
    (e) => e.orderId === orderId,
  );
  expect(entries.map((e) => [e.kind, e.availableDelta, e.frozenDelta])).toEqual([
    ['payout_freeze', -total, total],
    ['payout_debit', 0n, -total],
  ]);
  const sums = await sumLedgerEntries(w.h.db);
  for (const b of await listBalances(w.h.db))
    expect(sums.get(`${b.merchantId}/${b.chain}/${b.symbol}`)).toEqual({
      available: b.available,
      frozen: b.frozen,
    });
}

describe('a worker killed with SIGKILL while paying out', () => {
  it('between freeze and signing: the frozen payout is signed once after the restart', async () => {
    const to = '0x3131313131313131313131313131313131313131' as Address;
    const id = await payout('2.5', to);
    proxy.add({ method: 'eth_estimateGas', fault: { kind: 'hold' } }); // signing starts with the gas estimate
    const child = startWorker();
    await expect.poll(() => proxy.held, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(order(id).status).toBe('INIT');
    expect(attemptsOfOrder(w.h.db, order(id).id)).toHaveLength(0);
    await kill(child);
    proxy.clear();
    await restartUntilSettled(id);
    expect(attemptsOfOrder(w.h.db, order(id).id)).toHaveLength(1);
    expect(await received(to)).toBe(2_500_000n);
    await expectLedgerSettled(id, 2_500_000n);
  });

  it('between signing and broadcast: the stored bytes are sent after the restart, never new ones', async () => {
    const to = '0x3232323232323232323232323232323232323232' as Address;
    const id = await payout('3', to);
    proxy.add({ method: 'eth_sendRawTransaction', fault: { kind: 'hold' } }); // never reaches anvil
    const child = startWorker();
    await expect.poll(() => proxy.held, { timeout: 30_000 }).toBeGreaterThan(0);
    const [signed] = attemptsOfOrder(w.h.db, order(id).id);
    expect(signed?.status).toBe('signed'); // stored before it was sent
    expect(order(id).status).toBe('PENDING');
    await kill(child);
    proxy.clear();
    expect(await received(to)).toBe(0n);
    await restartUntilSettled(id);
    expect(attemptsOfOrder(w.h.db, order(id).id).map((a) => a.txHash)).toEqual([signed?.txHash]);
    expect(await received(to)).toBe(3_000_000n);
    await expectLedgerSettled(id, 3_000_000n);
  });

  it('while the broadcast is on the wire (the node took it, the answer never came): paid once', async () => {
    const to = '0x3333333333333333333333333333333333333334' as Address;
    const id = await payout('4', to);
    proxy.add({ method: 'eth_sendRawTransaction', fault: { kind: 'hold', phase: 'response' } });
    const child = startWorker();
    await expect.poll(() => proxy.held, { timeout: 30_000 }).toBeGreaterThan(0);
    // anvil took it (and mines it as it answers); the worker never hears back
    await expect.poll(() => received(to), { timeout: 10_000 }).toBe(4_000_000n);
    await kill(child);
    proxy.clear();
    await restartUntilSettled(id);
    expect(attemptsOfOrder(w.h.db, order(id).id)).toHaveLength(1);
    expect(await received(to)).toBe(4_000_000n);
    await expectLedgerSettled(id, 4_000_000n);
  });
});
