import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { Address } from 'viem';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { attemptsOfOrder } from '../../src/db/repositories/payouts.ts';
import { tokenBalance } from '../../src/devnet/evm/tokens.ts';
import { collectMetrics } from '../../src/services/collect-metrics.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { listOperatorPayouts } from '../../src/services/manage-payouts.ts';
import { kassaAsync } from './cli.ts';
import { devnetChainConfig, type EvmWorld, evmWorld } from './evm-chain.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { body, TEST_MASTER_KEY, TEST_MNEMONIC } from './harness.ts';

/**
 * The set-up of the EVM payout fault tests: one ETH world for the test file whose two RPC endpoints
 * ('a', 'b') go through a fault proxy in front of anvil (its rules cleared after each test), a
 * merchant with 1000 USDT, every log line kept, and a config file for `kassa …` through the proxy.
 */
export function useEvmPayoutFaults() {
  let w: EvmWorld;
  let proxy: FaultProxy;
  let m: MerchantCreated;
  let n = 0;
  let configFile: string;
  const logs: { level: number; msg: string; orderId?: string }[] = [];

  beforeAll(async () => {
    w = await evmWorld(['ETH'], {
      rpc: async (_chain, url) => {
        proxy = await startFaultProxy(url);
        return [proxy.endpoint('a'), proxy.endpoint('b')];
      },
    });
    m = await w.h.merchant('V3');
    await w.h.fund(m, 'ETH', 'USDT', '1000');
    configFile = join(w.h.dir, 'kassa.json');
    writeFileSync(
      configFile,
      JSON.stringify(devnetChainConfig(w.devnet, { rpc: () => [proxy.endpoint('a'), proxy.endpoint('b')] })),
    );
    w.h.rt.logger = pino(
      { level: 'debug' },
      new Writable({
        write(chunk, _encoding, done) {
          for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
          done();
        },
      }),
    );
  });
  afterEach(() => proxy.clear());
  afterAll(async () => {
    await proxy?.close();
    await w?.close();
  });

  function order(orderId: string) {
    const o = findOrderByMerchantOrderId(w.h.db, m.merchantId, orderId);
    if (!o) throw new Error(`no order ${orderId}`);
    return o;
  }

  return {
    get w() {
      return w;
    },
    get proxy() {
      return proxy;
    },
    get m() {
      return m;
    },
    /** Every line Kassa logged, parsed. */
    logs,
    /** `kassa …` on the test's database and chain (through the proxy), as an operator runs it. */
    cli: (args: string[]) =>
      kassaAsync([...args, '--config', configFile], {
        KASSA_DB: join(w.h.dir, 'kassa.db'),
        KASSA_MNEMONIC: TEST_MNEMONIC,
        KASSA_MASTER_KEY: TEST_MASTER_KEY,
        KASSA_LOG_LEVEL: 'warn',
      }),
    /** The i-th receiver address. */
    receiver: (i: number) => `0x${(0x5000 + i).toString(16).padStart(40, '0')}` as Address,
    /** Creates a USDT payout on ETH to `to` through the signed API; returns its orderId. */
    async payout(amount: string, to: Address) {
      const orderId = `nt-${++n}`;
      const res = await w.h.post('/v1/order/createPayout', m, {
        amount,
        symbol: 'USDT',
        chain: 'ETH',
        orderId,
        receiveAddress: to,
      });
      expect((await body(res)).code).toBe(200);
      return orderId;
    },
    order,
    /** The payout's signed attempts. */
    attempts: (orderId: string) => attemptsOfOrder(w.h.db, order(orderId).id),
    /** The USDT `to` holds on chain. */
    received: (to: Address) => {
      const c = w.devnet.get('ETH');
      return tokenBalance(c.client, c.tokens.USDT.address, to);
    },
    /** Every transaction and receipt hidden on the endpoints given: a backend that has not seen the new blocks. */
    lagging: (endpoint?: string) =>
      proxy.add({
        ...(endpoint ? { endpoint } : {}),
        method: /^eth_getTransaction(Receipt|ByHash)$/,
        fault: { kind: 'result', result: null },
      }),
    /** The orderIds of the payouts held as stuck. */
    stuck: async () => (await listOperatorPayouts(w.h.rt, { stuck: true })).map((p) => p.orderId),
    /** The held-payouts metric line for ETH. */
    async heldMetric(): Promise<string | undefined> {
      const text = await collectMetrics(w.h.rt);
      return text.split('\n').find((l) => l.startsWith('kassa_payouts_held{chain="ETH",kind="stuck"}'));
    },
    /** Payout passes with a block mined after each: what the worker does over a few polls. */
    async passes(count: number) {
      for (let i = 0; i < count; i++) {
        await w.payouts('ETH');
        await w.mine('ETH', 1);
      }
    },
  };
}
