import type { NewOperatorCost, NewSweep, NewSweepTx, TransferWrite } from '../store.ts';
import { store, T0 } from './context.ts';

// The fixtures the sweeping parts of the Store contract share (sweeping*.contract.ts).

/** A planned USDT sweep of 0xdeposit on ETH to the hot wallet; `over` replaces fields. */
export function sweep(id: string, over: Partial<NewSweep> = {}): NewSweep {
  return {
    id,
    chain: 'ETH',
    address: '0xdeposit',
    depositIndex: 7,
    destination: '0xhot',
    destinationKind: 'hot',
    symbol: 'USDT',
    tokenContract: '0x00000000000000000000000000000000000000aa',
    decimals: 6,
    feeMode: 'topup',
    amountBase: '5000000',
    feeEstimateBase: '1000',
    status: 'planned',
    createdAt: T0,
    ...over,
  };
}

/** A signed top-up of the sweep from the hot wallet at nonce 4; `over` replaces fields. */
export function sweepTx(id: string, sweepId: string, over: Partial<NewSweepTx> = {}): NewSweepTx {
  return {
    id,
    sweepId,
    chain: 'ETH',
    role: 'topup',
    fromAddress: '0xhot',
    toAddress: '0xdeposit',
    nonce: 4,
    txHash: `0x${id}`,
    rawTx: `raw-${id}`,
    valueBase: '1000',
    status: 'signed',
    validUntil: null,
    slot: 'nonce 4',
    ...over,
  };
}

/** A gas top-up cost of 700 wei on ETH paid by transaction 0xt1 of the sweep; `over` replaces fields. */
export function cost(sweepId: string, over: Partial<NewOperatorCost> = {}): NewOperatorCost {
  return {
    chain: 'ETH',
    kind: 'gas_topup',
    symbol: 'ETH',
    decimals: 18,
    amountBase: '700',
    sweepId,
    txHash: '0xt1',
    ...over,
  };
}

/** How many of a batch of concurrent calls were fulfilled, and the codes of those that were refused. */
export function outcomes(settled: PromiseSettledResult<unknown>[]): { won: number; refused: unknown[] } {
  return {
    won: settled.filter((s) => s.status === 'fulfilled').length,
    refused: settled.flatMap((s) => (s.status === 'rejected' ? [(s.reason as { code?: unknown }).code] : [])),
  };
}

/** Records what a scan saw on `chain` (new transfers, status changes of stored ones), without a checkpoint. */
export function scanned(
  chain: string,
  seen: { transfers?: TransferWrite[]; statusChanges?: { id: string; status: 'final' | 'orphaned' }[] },
): Promise<void> {
  return store.recordScan({
    chain,
    transfers: seen.transfers ?? [],
    statusChanges: seen.statusChanges ?? [],
    transitions: [],
    cursor: null,
    now: T0,
  });
}

/**
 * Opens as many connections as a race has callers before it starts (a read each, at once), so on
 * PostgreSQL the racers really overlap instead of the first finishing while the pool still connects.
 */
export async function warmPool(callers: number): Promise<void> {
  await Promise.all(Array.from({ length: callers }, () => store.findSweep('swp_warm_up')));
}
