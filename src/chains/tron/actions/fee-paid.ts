import type { TronContext } from '../context.ts';
import { int64, isEmpty } from '../wire.ts';

/** TRX a mined transaction burnt (TransactionInfo `fee`: energy, bandwidth, activation), or null when unknown. */
export async function feePaid(ctx: TronContext, args: { txHash: string }): Promise<bigint | null> {
  const info = await ctx.http.call('/wallet/gettransactioninfobyid', { value: args.txHash });
  return isEmpty(info) ? null : int64(info.fee);
}
