import type { EvmContext } from '../context.ts';

/**
 * Checks every RPC URL that answers (the others are checked before their first use): each must serve
 * the configured chain id (check-endpoint.ts), else ChainError `wrong_network` and the chain is
 * disabled. Throws a transient error when none answers.
 */
export async function connect(ctx: EvmContext): Promise<void> {
  await ctx.endpoints.checkAll();
  await ctx.client.getChainId();
}
