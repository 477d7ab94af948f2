import { headsUnder } from '../../finality.ts';
import type { ChainHeads } from '../../port.ts';
import type { TronContext } from '../context.ts';
import { latestBlock } from './latest-block.ts';

/** Head and final heights: the solidified block under `finalized` (the default), head − N + 1 under N. */
export async function heads(ctx: TronContext): Promise<ChainHeads> {
  const finalized = ctx.settings.confirmations === 'finalized';
  const [head, solid] = await Promise.all([
    latestBlock(ctx, { view: 'head' }),
    finalized ? latestBlock(ctx, { view: 'solid' }) : Promise.resolve(null),
  ]);
  return headsUnder(ctx.settings, head.number, solid?.number ?? null);
}
