import type { BroadcastResult } from '../../port.ts';
import { TransientRpcError } from '../../rpc/endpoints.ts';
import type { TronContext } from '../context.ts';
import { type NodeJson, TronNodeError } from '../http.ts';
import { fromHexText } from '../text.ts';
import type { TronTx } from '../transaction.ts';

const PERMANENT_BROADCAST_CODES = new Set([
  'SIGERROR',
  'TAPOS_ERROR',
  'TRANSACTION_EXPIRATION_ERROR',
  'TOO_BIG_TRANSACTION_ERROR',
]);
const TRANSIENT_BROADCAST_CODES = new Set([
  'SERVER_BUSY',
  'NO_CONNECTION',
  'NOT_ENOUGH_EFFECTIVE_CONNECTION',
  'BLOCK_UNSOLIDIFIED',
]);

/**
 * /wallet/broadcasttransaction with the stored JSON. A duplicate counts as sent; a bad signature,
 * a reference block off the chain, an expired or oversized transaction can never work with these
 * bytes (`permanent`); a busy node is retried on the next endpoint.
 */
export async function broadcast(
  ctx: TronContext,
  signed: { raw: string; txHash: string },
): Promise<BroadcastResult> {
  let tx: TronTx;
  try {
    tx = JSON.parse(signed.raw) as TronTx;
  } catch {
    return { ok: false, permanent: true, error: 'The stored transaction is not JSON.' };
  }
  let answer: NodeJson;
  try {
    answer = await ctx.http.pinned(async (call) => {
      const a = await call('/wallet/broadcasttransaction', tx as unknown as Record<string, unknown>);
      if (TRANSIENT_BROADCAST_CODES.has(a?.code)) throw new TransientRpcError(`broadcast: ${a.code}`);
      return a;
    });
  } catch (error) {
    if (error instanceof TronNodeError) return { ok: false, permanent: false, error: error.message };
    throw error;
  }
  if (answer?.result === true || answer?.code === 'DUP_TRANSACTION_ERROR') return { ok: true };
  const code = String(answer?.code ?? 'OTHER_ERROR');
  const error = `${code}: ${fromHexText(answer?.message)}`;
  return { ok: false, permanent: PERMANENT_BROADCAST_CODES.has(code), error };
}
