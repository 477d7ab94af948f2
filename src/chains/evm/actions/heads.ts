import { headsUnder } from '../../finality.ts';
import type { ChainHeads } from '../../port.ts';
import type { EvmContext } from '../context.ts';

/** The head and final heights: the `finalized` block tag under `finalized`, head − N + 1 under N confirmations. */
export async function heads(ctx: EvmContext): Promise<ChainHeads> {
  const head = Number(await ctx.client.getBlockNumber({ cacheTime: 0 }));
  const finalized =
    ctx.settings.confirmations === 'finalized'
      ? Number((await ctx.client.getBlock({ blockTag: 'finalized' })).number)
      : null;
  return headsUnder(ctx.settings, head, finalized);
}
