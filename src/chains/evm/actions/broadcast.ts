import { BaseError, type Hex } from 'viem';
import type { BroadcastResult } from '../../port.ts';
import type { EvmContext } from '../context.ts';
import { firstLine, messagesOf } from '../errors.ts';

/**
 * eth_sendRawTransaction. A node that already knows the bytes counts as sent; a nonce already
 * used, or a replacement the node finds too cheap, can never work with these bytes (`permanent`);
 * another refusal by the node is worth a retry; a network failure is thrown.
 */
export async function broadcast(
  ctx: EvmContext,
  signed: { raw: string; txHash: string },
): Promise<BroadcastResult> {
  try {
    await ctx.client.sendRawTransaction({ serializedTransaction: signed.raw as Hex });
    return { ok: true };
  } catch (error) {
    const text = messagesOf(error);
    if (/already known|known transaction|already imported|AlreadyKnown/i.test(text)) return { ok: true };
    if (/nonce too low|nonce has already been used|replacement transaction underpriced/i.test(text)) {
      return { ok: false, permanent: true, error: firstLine(error) };
    }
    if (error instanceof BaseError && !/fetch failed|timeout|HTTP 5|HTTP 429/i.test(text)) {
      return { ok: false, permanent: false, error: firstLine(error) };
    }
    throw error;
  }
}
