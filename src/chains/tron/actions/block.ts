import { ChainError } from '../../errors.ts';
import type { BlockRef } from '../../port.ts';
import type { TronContext } from '../context.ts';
import { type NodeJson, TronNodeError } from '../http.ts';
import { blockRef, isEmpty } from '../wire.ts';

/** A block as {number, blockID, unix seconds}; null when the node has none at that height. */
export async function block(ctx: TronContext, args: { height: number }): Promise<BlockRef | null> {
  const { height } = args;
  if (!Number.isSafeInteger(height) || height < 0) return null;
  let json: NodeJson;
  if (ctx.hasGetBlock) {
    try {
      json = await ctx.http.call('/wallet/getblock', { id_or_num: String(height), detail: false });
    } catch (error) {
      if (!(error instanceof TronNodeError && error.status === 404)) throw error;
      ctx.hasGetBlock = false;
      return block(ctx, args);
    }
  } else {
    json = await ctx.http.call('/wallet/getblockbynum', { num: height });
  }
  if (isEmpty(json)) return null;
  const ref = blockRef(json);
  if (ref.number !== height)
    throw new ChainError('node_error', `asked for block ${height}, the node answered ${ref.number}`);
  return ref;
}
