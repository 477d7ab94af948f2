import type { BalanceRead, ChainAdapter } from '../../chains/port.ts';

/** Reads in flight at once on chains without batched reads (TRON, Sui). */
export const BALANCE_READS_IN_FLIGHT = 8;

/**
 * The balances of `reads` on one chain, in their order: in batches as of block `atHeight` where
 * the adapter reads in batches (EVM), otherwise the latest balances, BALANCE_READS_IN_FLIGHT at a
 * time. Throws the first read's error (a chain that cannot be read is not reconciled).
 */
export async function readBalances(
  adapter: ChainAdapter,
  reads: BalanceRead[],
  atHeight: number | null,
): Promise<bigint[]> {
  if (adapter.balances) return adapter.balances(reads, atHeight);
  const out = new Array<bigint>(reads.length);
  let next = 0;
  const worker = async () => {
    while (next < reads.length) {
      const i = next++;
      const read = reads[i] as BalanceRead;
      out[i] = await adapter.balance(read.address, read.token);
    }
  };
  await Promise.all(Array.from({ length: Math.min(BALANCE_READS_IN_FLIGHT, reads.length) }, worker));
  return out;
}
