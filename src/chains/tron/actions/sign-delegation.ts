import { ChainError } from '../../errors.ts';
import type { SignedPayout } from '../../port.ts';
import { addressOfKey, toHex41 } from '../address.ts';
import type { TronContext } from '../context.ts';
import { MIN_DELEGATION_SUN } from '../delegation.ts';
import { signCall } from './sign-call.ts';

/**
 * Signs lending `sun` of the hot wallet's staked TRX as energy to `to` (DelegateResourceContract),
 * or taking it back (`reclaim`: UnDelegateResourceContract). Bandwidth only; no lock, so it can be
 * taken back at once. Throws ChainError `wrong_key`, `bad_request` below 1 TRX.
 */
export async function signDelegation(
  ctx: TronContext,
  input: { privateKey: Buffer; from: string; to: string; sun: bigint; reclaim: boolean },
): Promise<SignedPayout> {
  if (addressOfKey(input.privateKey) !== input.from)
    throw new ChainError('wrong_key', 'The signing key does not match the hot wallet');
  if (input.sun < MIN_DELEGATION_SUN) throw new ChainError('bad_request', 'At least 1 TRX is lent at a time');
  return signCall(ctx, {
    call: {
      type: input.reclaim ? 'UnDelegateResourceContract' : 'DelegateResourceContract',
      owner: toHex41(input.from),
      receiver: toHex41(input.to),
      balanceSun: input.sun,
    },
    feeLimit: 0n,
    privateKey: input.privateKey,
  });
}
