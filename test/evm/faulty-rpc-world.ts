import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createEvmAdapter } from '../../src/chains/evm/adapter.ts';
import { activeChain } from '../../src/config/active-chain.ts';
import type { EvmDevnetChain } from '../../src/devnet/evm/devnet.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { type Fault, type FaultProxy, type FaultRule, startFaultProxy } from '../helpers/fault-proxy.ts';
import { captureLogs, type LogLine, orderOf } from '../helpers/fault-suite.ts';

/**
 * The world of issue 14's fault-injecting RPC suite on the EVM family (test/evm/rpc-faults*.test.ts):
 * anvil (ETH and BSC) behind the fault proxy, ETH reached through two endpoints of it, a merchant
 * with 1000 USDT on ETH, the log lines captured. Each suite file calls useFaultyEvmWorld() once and
 * reads `w`, `m` and `logs` after its beforeAll.
 */
export let w: EvmWorld;
const proxies = new Map<EvmDevnetChain, FaultProxy>();
export let m: MerchantCreated;
export let logs: LogLine[];
let n = 0;

/** The next number for an orderId, unique in the file's world. */
export const nextOrderNo = () => ++n;

export const RPC_TIMEOUT_MS = 400;

/** Starts the world before the file's tests, clears every fault after each, and stops it all after them. */
export function useFaultyEvmWorld(): void {
  beforeAll(async () => {
    w = await evmWorld(['ETH', 'BSC'], {
      rpc: async (chain, url) => {
        const proxy = await startFaultProxy(url);
        proxies.set(chain, proxy);
        return chain === 'ETH' ? [proxy.endpoint('a'), proxy.endpoint('b')] : [proxy.url];
      },
    });
    logs = captureLogs(w.h);
    // the registry's adapters wait 10 s for an answer; a hung request here fails after 400 ms
    for (const chain of ['ETH', 'BSC'] as const)
      w.h.rt.adapters.set(
        chain,
        createEvmAdapter(activeChain(w.h.rt.config, chain), w.h.rt.logger.child({ chain }), {
          timeoutMs: RPC_TIMEOUT_MS,
        }),
      );
    m = await w.h.merchant('V3');
    await w.h.fund(m, 'ETH', 'USDT', '1000');
  });
  afterEach(async () => {
    for (const p of proxies.values()) {
      p.clear();
      await p.up();
    }
  });
  afterAll(async () => {
    for (const p of proxies.values()) await p.close();
    await w?.close();
  });
}

/** The fault proxy in front of `chain`'s node. */
export const proxy = (chain: EvmDevnetChain) => proxies.get(chain) as FaultProxy;
/** The node's current block height. */
export const head = async (chain: EvmDevnetChain) =>
  Number(await w.devnet.get(chain).client.getBlockNumber());
/** The order's status as the merchant sees it. */
export const status = (orderId: string) => orderOf(w.h, m, orderId).status;

/** Mines a block on `chain` every poll until the order reaches `wanted` (what time does on a live chain). */
export async function untilStatus(chain: EvmDevnetChain, orderId: string, wanted: string, timeout = 20_000) {
  await expect
    .poll(
      async () => {
        await w.mine(chain, 1);
        return status(orderId);
      },
      { timeout, interval: 100 },
    )
    .toBe(wanted);
}

/** Hex block numbers of an eth_getLogs or eth_getBlockByNumber request (null for other calls). */
function blockSpan(params: unknown): [number, number] | null {
  const first = (params as unknown[] | undefined)?.[0];
  const hex = (v: unknown) => (typeof v === 'string' && v.startsWith('0x') ? Number.parseInt(v, 16) : null);
  if (typeof first === 'string') {
    const at = hex(first);
    return at === null ? null : [at, at];
  }
  const range = first as { fromBlock?: unknown; toBlock?: unknown } | undefined;
  const from = hex(range?.fromBlock);
  const to = hex(range?.toBlock);
  return from === null || to === null ? null : [from, to];
}

/** A rule hitting the reads of blocks from `height` on (logs, blocks, receipts): where the next payment lands. */
export function onReadsFrom(height: number, fault: Fault, times: number, endpoint?: string): FaultRule {
  return {
    ...(endpoint ? { endpoint } : {}),
    method: /^eth_(getLogs|getBlockByNumber)$/,
    match: (c) => (blockSpan(c.params)?.[1] ?? -1) >= height,
    times,
    fault,
  };
}
