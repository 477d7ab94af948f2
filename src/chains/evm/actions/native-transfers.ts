import { getAddress } from 'viem';
import { mapLimit } from '../../../lib/map-limit.ts';
import type { ObservedTransfer } from '../../port.ts';
import type { EvmContext } from '../context.ts';

/**
 * Native-coin deposits in blocks [from, to]: every transaction with value whose recipient is
 * watched, each read with its block and confirmed (success or not) by its receipt.
 */
export async function nativeTransfers(
  ctx: EvmContext,
  args: { from: number; to: number; addresses: ReadonlySet<string> },
): Promise<ObservedTransfer[]> {
  const heights = Array.from({ length: args.to - args.from + 1 }, (_, i) => args.from + i);
  const found: ObservedTransfer[] = [];
  await mapLimit(heights, 8, async (h) => {
    const block = await ctx.client.getBlock({ blockNumber: BigInt(h), includeTransactions: true });
    for (const tx of block.transactions) {
      if (!tx.to || tx.value === 0n) continue;
      const recipient = getAddress(tx.to);
      if (!args.addresses.has(recipient)) continue;
      const receipt = await ctx.client.getTransactionReceipt({ hash: tx.hash });
      found.push({
        txid: tx.hash,
        eventKey: 'native',
        blockNum: Number(block.number),
        blockHash: block.hash,
        timestamp: Number(block.timestamp),
        from: getAddress(tx.from),
        to: recipient,
        contract: null,
        amountBase: tx.value,
        success: receipt.status === 'success',
      });
    }
  });
  return found;
}
