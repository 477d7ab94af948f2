import { ChainError } from '../../errors.ts';
import type { EvmContext } from '../context.ts';

/**
 * Checks that the RPC serves the configured chain id. Throws ChainError `wrong_network` when it
 * serves another one (the chain is then disabled).
 */
export async function connect(ctx: EvmContext): Promise<void> {
  const id = await ctx.client.getChainId();
  if (ctx.settings.chainId !== undefined && id !== ctx.settings.chainId) {
    throw new ChainError(
      'wrong_network',
      `${ctx.chain}: the RPC serves chain id ${id}, but ${ctx.settings.chainId} is configured; the chain is disabled`,
    );
  }
}
