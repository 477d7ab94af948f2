import type { SuiContext } from '../context.ts';
import { isNotFound } from '../grpc.ts';

/**
 * What an executed transaction charged its gas owner: computation plus storage minus the storage
 * rebate (MIST); null when the node does not know the digest.
 */
export async function feePaid(ctx: SuiContext, args: { txHash: string }): Promise<bigint | null> {
  try {
    const { transaction } = await ctx.rpc.call(
      (c, o) =>
        c.ledgerService.getTransaction(
          { digest: args.txHash, readMask: { paths: ['digest', 'effects.gas_used'] } },
          o,
        ).response,
    );
    const used = transaction?.effects?.gasUsed;
    if (!used) return null;
    return (used.computationCost ?? 0n) + (used.storageCost ?? 0n) - (used.storageRebate ?? 0n);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}
