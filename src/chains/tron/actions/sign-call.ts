import type { SignedPayout } from '../../port.ts';
import type { TronContext } from '../context.ts';
import { buildTransaction, expirationOf, type PayoutContract, signTransaction } from '../transaction.ts';
import { latestBlock } from './latest-block.ts';

/**
 * Builds `call` locally and signs it with `privateKey`: the SOLIDIFIED block as reference (it is on
 * every branch the transaction could land on), expiring `ctx.expirationMs` after the head block.
 * Its spend slot is that reference and expiry: after it, the transaction can never land.
 */
export async function signCall(
  ctx: TronContext,
  args: { call: PayoutContract; feeLimit: bigint; privateKey: Buffer },
): Promise<SignedPayout> {
  const [head, solid] = await Promise.all([
    latestBlock(ctx, { view: 'head' }),
    latestBlock(ctx, { view: 'solid' }),
  ]);
  const tx = buildTransaction(
    args.call,
    { refBlockId: solid.id, expiration: head.timestampMs + ctx.expirationMs, timestamp: Date.now() },
    args.feeLimit,
  );
  const signed = signTransaction(tx, args.privateKey);
  const validUntil = expirationOf(signed);
  return {
    txHash: signed.txID,
    raw: JSON.stringify(signed),
    nonce: null,
    validUntil,
    slot: `ref block ${signed.raw_data.ref_block_bytes}/${signed.raw_data.ref_block_hash}, expires ${new Date(validUntil).toISOString()}`,
    maxFeePerGas: null,
    maxPriorityFeePerGas: null,
  };
}
