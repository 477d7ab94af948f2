import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEvmAdapter } from '../../src/chains/evm/adapter.ts';
import { createSuiAdapter } from '../../src/chains/sui/adapter.ts';
import { createTronAdapter } from '../../src/chains/tron/adapter.ts';
import { activeChain } from '../../src/config/active-chain.ts';
import { attemptsOfOrder } from '../../src/db/repositories/payouts.ts';
import { customerAddress, payAsCustomer } from '../../src/devnet/pay-as-customer.ts';
import { SANDBOX_CUSTOMER, type SandboxChains, startSandboxChains } from '../../src/devnet/sandbox.ts';
import { createKeyRing } from '../../src/keys/key-ring.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { type Fault, type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';
import {
  collect,
  eventsOf,
  expectOneSuccess,
  orderOf,
  payout,
  withChainJobs,
} from '../helpers/fault-suite.ts';
import { type Harness, makeHarness, TEST_MNEMONIC } from '../helpers/harness.ts';

/**
 * Issue 14: a faulty node of one chain family leaves the others alone. ETH (anvil), TRON (the fake
 * node, 1 s blocks) and SUI (the fake node, 250 ms checkpoints) run live as in the sandbox, each
 * behind its own fault proxy, with the real worker jobs of all three. While one family's node hangs,
 * refuses connections or answers 503, payments and payouts on the other two go through; once the
 * node is back, the faulty family's payment is credited and its payout sent, each exactly once.
 */
const FAMILIES = ['ETH', 'TRON', 'SUI'] as const;
type Family = (typeof FAMILIES)[number];
const TOKEN: Record<Family, { symbol: string; decimals: number }> = {
  ETH: { symbol: 'USDT', decimals: 6 },
  TRON: { symbol: 'USDT', decimals: 6 },
  SUI: { symbol: 'USDC', decimals: 6 },
};
const RPC_TIMEOUT_MS = 400;

let dir: string;
let sandbox: SandboxChains;
let h: Harness;
let m: MerchantCreated;
const proxies = new Map<Family, FaultProxy>();
let n = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kassa-isolation-'));
  const keys = createKeyRing(TEST_MNEMONIC);
  const hotWallets = Object.fromEntries(FAMILIES.map((c) => [c, keys.hotWallet(c).address]));
  sandbox = await startSandboxChains({ dataDir: dir, hotWallets, evm: ['ETH'], tron: true, sui: true });
  const chains = (sandbox.config as { chains: Record<string, { testnet?: { rpc: string[] } }> }).chains;
  for (const c of FAMILIES) {
    const proxy = await startFaultProxy(sandbox.chains[c]?.rpc as string);
    proxies.set(c, proxy);
    (chains[c]?.testnet as { rpc: string[] }).rpc = [proxy.url];
    Object.assign(chains[c] as object, { pollIntervalMs: 200 });
  }
  h = await makeHarness({ ...sandbox.config, worker: { payoutIntervalMs: 200 } }, { clockStart: Date.now() });
  m = await h.merchant('V3');
  for (const c of FAMILIES) await h.fund(m, c, TOKEN[c].symbol, '100');
}, 60_000);
afterEach(async () => {
  for (const p of proxies.values()) {
    p.clear();
    await p.up();
  }
});
afterAll(async () => {
  for (const p of proxies.values()) await p.close();
  await sandbox?.stop();
  await h?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const proxy = (c: Family) => proxies.get(c) as FaultProxy;
const status = (orderId: string) => orderOf(h, m, orderId).status;
const untilStatus = (orderId: string, wanted: string, timeout = 20_000) =>
  expect.poll(() => status(orderId), { timeout, interval: 100 }).toBe(wanted);

/** A collection on `c` paid in full by the sandbox customer. */
async function paidCollection(c: Family, amount: string) {
  const order = await collect(h, m, { chain: c, symbol: TOKEN[c].symbol, amount, orderId: `i-${++n}` });
  const chain = sandbox.chains[c];
  if (!chain) throw new Error(`no sandbox chain ${c}`);
  const contract = chain.tokens[TOKEN[c].symbol]?.contract ?? null;
  const base = BigInt(Math.round(Number(amount) * 100)) * 10n ** BigInt(TOKEN[c].decimals - 2);
  await payAsCustomer(chain, SANDBOX_CUSTOMER, contract, order.address, base);
  return order.orderId;
}

/** A payout on `c` to the sandbox customer (an address every family's node knows). */
async function payoutTo(c: Family, amount: string): Promise<string> {
  const family = sandbox.chains[c]?.family ?? 'evm';
  return payout(h, m, {
    chain: c,
    symbol: TOKEN[c].symbol,
    amount,
    orderId: `i-${++n}`,
    receiveAddress: customerAddress(family, SANDBOX_CUSTOMER),
  });
}

/**
 * Adapters for every chain: a failed request fails after 400 ms, except on the faulty chain, whose
 * requests wait a minute for an answer, so that a node that holds them stalls its chain for longer
 * than the test waits for the others.
 */
function adaptersWith(faulty: Family): void {
  for (const chain of FAMILIES) {
    const settings = activeChain(h.rt.config, chain);
    const log = h.rt.logger.child({ chain });
    const options = { timeoutMs: chain === faulty ? 60_000 : RPC_TIMEOUT_MS };
    const create =
      chain === 'ETH' ? createEvmAdapter : chain === 'TRON' ? createTronAdapter : createSuiAdapter;
    h.rt.adapters.set(chain, create(settings, log, options));
  }
}

/** Every request to the faulty node fails this way, one after the other. */
const FAULTS: { name: string; apply: (p: FaultProxy) => Promise<void> | void }[] = [
  { name: 'hangs', apply: (p) => void p.add({ fault: { kind: 'hold' } }) },
  { name: 'answers 503', apply: (p) => void p.add({ fault: { kind: 'status', status: 503 } as Fault }) },
  { name: 'is down', apply: (p) => p.down() },
];

describe('one chain family’s node is faulty; the others are not', () => {
  for (const faulty of FAMILIES) {
    const others = FAMILIES.filter((c) => c !== faulty);
    it(`keeps crediting and paying out on ${others.join(' and ')} while the ${faulty} node hangs, answers 503 or is down; ${faulty} catches up once its node is back`, async () => {
      adaptersWith(faulty);
      await withChainJobs(h, async (health) => {
        // the faulty family's chain is up and running when its node breaks
        await untilStatus(await paidCollection(faulty, '1.25'), 'SUCCESS');
        const stuck = { collection: '', payout: '' };
        for (const [i, fault] of FAULTS.entries()) {
          proxy(faulty).clear();
          await proxy(faulty).up();
          await fault.apply(proxy(faulty));
          if (i === 0) {
            stuck.collection = await paidCollection(faulty, '2.5');
            stuck.payout = await payoutTo(faulty, '1.5');
          }
          const hits = proxy(faulty).hits;
          const meanwhile: string[] = [];
          for (const c of others)
            meanwhile.push(await paidCollection(c, `3.${i + 1}`), await payoutTo(c, `0.${i + 1}`));
          for (const orderId of meanwhile) await untilStatus(orderId, 'SUCCESS');
          // the worker kept trying the faulty node meanwhile, in vain (held, answered 503, refused)
          if (fault.name === 'hangs') expect(proxy(faulty).held).toBeGreaterThan(0);
          else {
            if (fault.name === 'answers 503') expect(proxy(faulty).hits).toBeGreaterThan(hits);
            await expect.poll(() => health.get(faulty).lastError, { timeout: 10_000 }).not.toBeNull();
          }
          expect(status(stuck.collection), fault.name).toBe('INIT');
          expect(status(stuck.payout), fault.name).not.toBe('SUCCESS');
        }
        proxy(faulty).clear();
        await proxy(faulty).up();
        await untilStatus(stuck.collection, 'SUCCESS');
        await untilStatus(stuck.payout, 'SUCCESS', 30_000);
        expect(orderOf(h, m, stuck.collection).actualAmountBase).toBe(2_500_000n);
        expectOneSuccess(eventsOf(h, m, stuck.collection), stuck.collection);
        expectOneSuccess(eventsOf(h, m, stuck.payout), stuck.payout);
        expect(attemptsOfOrder(h.db, orderOf(h, m, stuck.payout).id)).toHaveLength(1);
        await expect.poll(() => health.get(faulty).lastError, { timeout: 10_000 }).toBeNull();
      });
    }, 120_000);
  }
});
