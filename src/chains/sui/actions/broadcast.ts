import { fromBase64 } from '@mysten/sui/utils';
import { ChainError } from '../../errors.ts';
import type { BroadcastResult } from '../../port.ts';
import type { SuiContext } from '../context.ts';
import { grpcCode, MASKS } from '../grpc.ts';
import { rememberTransaction } from '../known-transactions.ts';
import { decodeRaw, type SignedTransaction } from '../payout-tx.ts';

/**
 * ExecuteTransaction with the stored bytes and signature. Executing them again is idempotent (the
 * node answers with the first execution's effects), so a lost answer is simply asked again. The
 * node's refusal of the inputs (an object at another version, a bad signature) is permanent for
 * these bytes; transient failures are retried and, when they persist, thrown.
 */
export async function broadcast(
  ctx: SuiContext,
  signed: { raw: string; txHash: string },
): Promise<BroadcastResult> {
  let tx: SignedTransaction;
  try {
    tx = decodeRaw(signed.raw);
  } catch {
    return { ok: false, permanent: true, error: 'The stored transaction is not a signed SUI transaction.' };
  }
  rememberTransaction(ctx, signed.txHash, tx, true);
  try {
    const res = await ctx.rpc.call(
      (c, o) =>
        c.transactionExecutionService.executeTransaction(
          {
            transaction: { bcs: { value: tx.bytes } },
            signatures: [tx.signature, ...(tx.sponsorSignature ? [tx.sponsorSignature] : [])].map((sig) => ({
              bcs: { value: fromBase64(sig) },
              signature: { oneofKind: undefined },
            })),
            readMask: { paths: [...MASKS.execute] },
          },
          o,
        ).response,
    );
    const digest = res.transaction?.digest;
    if (digest && digest !== signed.txHash)
      throw new ChainError('node_error', `${ctx.chain}: the node executed ${digest}, not ${signed.txHash}`);
    return { ok: true };
  } catch (error) {
    if (grpcCode(error) === 'INVALID_ARGUMENT')
      return { ok: false, permanent: true, error: (error as Error).message };
    throw error;
  }
}
