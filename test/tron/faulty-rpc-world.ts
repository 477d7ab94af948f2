import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createTronAdapter } from '../../src/chains/tron/adapter.ts';
import { activeChain } from '../../src/config/active-chain.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { type Fault, type FaultProxy, type FaultRule, startFaultProxy } from '../helpers/fault-proxy.ts';
import { captureLogs, type LogLine, orderOf } from '../helpers/fault-suite.ts';
import { type TronWorld, tronWorld } from '../helpers/tron-chain.ts';

/**
 * The world of issue 14's fault-injecting RPC suite on TRON (test/tron/rpc-faults*.test.ts): the fake
 * java-tron node behind the fault proxy (REST paths), reached through two endpoints of it, a
 * merchant with 1000 USDT, the log lines captured. Each suite file calls useFaultyTronWorld() once
 * and reads `w`, `proxy`, `m` and `logs` after its beforeAll.
 */
export let w: TronWorld;
export let proxy: FaultProxy;
export let m: MerchantCreated;
export let logs: LogLine[];
let n = 0;

/** The next number for an orderId, unique in the file's world. */
export const nextOrderNo = () => ++n;

const RPC_TIMEOUT_MS = 400;
/** Blocks between the head and the solidified block: a deposit is final four blocks after it landed. */
export const SOLID_LAG = 4;

/** A TRON adapter on the world's settings with other RPC URLs (a hung request fails after 400 ms). */
export function adapterWith(rpc: string[], settings: Record<string, unknown> = {}) {
  return createTronAdapter(
    { ...activeChain(w.h.rt.config, 'TRON'), rpc, ...settings },
    w.h.rt.logger.child({ chain: 'TRON' }),
    { timeoutMs: RPC_TIMEOUT_MS },
  );
}

/** Starts the world before the file's tests, clears every fault after each, and stops it all after them. */
export function useFaultyTronWorld(): void {
  beforeAll(async () => {
    w = await tronWorld({ solidLag: SOLID_LAG });
    proxy = await startFaultProxy(w.node.url);
    logs = captureLogs(w.h);
    w.h.rt.adapters.set('TRON', adapterWith([proxy.endpoint('a'), proxy.endpoint('b')]));
    m = await w.h.merchant('V3');
    await w.h.fund(m, 'TRON', 'USDT', '1000');
  });
  afterEach(async () => {
    proxy.clear();
    await proxy.up();
  });
  afterAll(async () => {
    await proxy?.close();
    await w?.close();
  });
}

/** The order's status as the merchant sees it. */
export const status = (orderId: string) => orderOf(w.h, m, orderId).status;

/** Mines a block every poll until the order reaches `wanted` (what time does on a live chain). */
export async function untilStatus(orderId: string, wanted: string, timeout = 20_000) {
  await expect
    .poll(
      () => {
        w.mine(1);
        return status(orderId);
      },
      { timeout, interval: 100 },
    )
    .toBe(wanted);
}

/** The highest block number a request reads (getblockbylimitnext, gettransactioninfobyblocknum, getblock by number). */
function reaches(params: unknown): number {
  const p = params as { endNum?: number; num?: number; id_or_num?: string } | undefined;
  if (p?.endNum !== undefined) return p.endNum - 1;
  return Number(p?.num ?? p?.id_or_num ?? -1);
}

/** A rule hitting the reads of blocks from `height` on (where the next payment lands). */
export function onReadsFrom(height: number, fault: Fault, times: number, endpoint?: string): FaultRule {
  return {
    ...(endpoint ? { endpoint } : {}),
    method: /^\/wallet\/(getblockbylimitnext|gettransactioninfobyblocknum)$/,
    match: (c) => reaches(c.params) >= height,
    times,
    fault,
  };
}

/** A block as the fake node serves it to `getblock` with `detail: false`. */
export async function blockAt(view: 'wallet' | 'walletsolidity', height?: number): Promise<unknown> {
  const res = await fetch(`${w.node.url}/${view}/getblock`, {
    method: 'POST',
    body: JSON.stringify(
      height === undefined ? { detail: false } : { id_or_num: String(height), detail: false },
    ),
  });
  return res.json();
}
