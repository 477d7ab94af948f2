import type { RecordedSpend, SlotVerdict } from '../../port.ts';
import { jsonRpcCall } from '../../rpc/json-rpc.ts';
import { corroboratedVerdict, needsSecondOpinion } from '../../slot-verdict.ts';
import type { EvmContext } from '../context.ts';

/**
 * The slot of an EVM payout is its nonce. On one pinned endpoint (then again on a second): a
 * receipt of any of the payout's transactions means it landed; a nonce the account has not used
 * yet, or a transaction of ours the node still knows, means it can still land; a nonce used by a
 * transaction Kassa recorded for another purpose proves ours never will. A used nonce with no
 * transaction of Kassa's to show for it is unexplained: a lagging backend, or the key used
 * elsewhere. Kassa holds the payout rather than pay it again.
 */
export async function judgeSlot(
  ctx: EvmContext,
  input: { from: string; attempts: RecordedSpend[]; recorded: RecordedSpend[] },
): Promise<SlotVerdict> {
  const nonce = input.attempts[0]?.nonce;
  if (nonce === null || nonce === undefined) return { state: 'open', detail: 'no nonce to judge' };
  const others = input.recorded.filter((r) => r.nonce === nonce);
  const views = await ctx.endpoints.corroborate(async (url, signal): Promise<SlotVerdict> => {
    const call = <T>(method: string, params: unknown[]) => jsonRpcCall<T>(url, method, params, signal);
    for (const a of input.attempts) {
      if (await call('eth_getTransactionReceipt', [a.txHash])) return { state: 'landed', txHash: a.txHash };
    }
    const used = Number(BigInt(await call<string>('eth_getTransactionCount', [input.from, 'latest'])));
    if (used <= nonce) return { state: 'open', detail: `nonce ${nonce} is not used yet (${used} sent)` };
    for (const a of input.attempts) {
      if (await call('eth_getTransactionByHash', [a.txHash]))
        return { state: 'open', detail: `${a.txHash} is known to the node without a receipt yet` };
    }
    for (const o of others) {
      if (await call('eth_getTransactionReceipt', [o.txHash]))
        return { state: 'dead', proof: `nonce ${nonce} was used by Kassa's transaction ${o.txHash}` };
    }
    return {
      state: 'unexplained',
      detail: `nonce ${nonce} of ${input.from} is used (${used} sent), but no transaction of this payout (${input.attempts.map((a) => a.txHash).join(', ')}) nor any other Kassa recorded is on chain`,
    };
  }, needsSecondOpinion);
  return corroboratedVerdict(views);
}
