import type { BlockRef } from '../../port.ts';
import type { EvmContext } from '../context.ts';
import { isNotFound } from '../errors.ts';

/** A block by height as {number, hash, unix seconds}; null when the node has none there. */
export async function block(ctx: EvmContext, args: { height: number }): Promise<BlockRef | null> {
  try {
    const b = await ctx.client.getBlock({ blockNumber: BigInt(args.height) });
    return { number: Number(b.number), hash: b.hash, timestamp: Number(b.timestamp) };
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}
