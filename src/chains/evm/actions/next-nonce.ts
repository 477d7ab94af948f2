import type { Address } from 'viem';
import type { EvmContext } from '../context.ts';

/** The next nonce the node expects from `address`, counting its pending transactions. */
export function nextNonce(ctx: EvmContext, args: { address: string }): Promise<number> {
  return ctx.client.getTransactionCount({ address: args.address as Address, blockTag: 'pending' });
}
