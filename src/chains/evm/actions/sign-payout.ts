import { encodeFunctionData, getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ChainError } from '../../errors.ts';
import type { SignedPayout, TokenSpec } from '../../port.ts';
import type { EvmContext } from '../context.ts';
import { ERC20_ABI } from '../erc20.ts';
import { firstLine, isRevert } from '../errors.ts';
import { feesPerGas } from './fees.ts';
import { signCall } from './sign.ts';

/**
 * Builds and signs a payout at `nonce`: an ERC-20 `transfer`, or a plain value transfer for the
 * native coin, with the node's gas estimate plus 20 % and today's fees. Throws ChainError
 * `payout_rejected` when the node says the transfer would revert, `wrong_key` when the key is not
 * the hot wallet's, `bad_request` without a nonce.
 */
export async function signPayout(
  ctx: EvmContext,
  input: {
    privateKey: Buffer;
    from: string;
    to: string;
    token: TokenSpec;
    amountBase: bigint;
    nonce: number | null;
  },
): Promise<SignedPayout> {
  if (input.nonce === null) throw new ChainError('bad_request', 'EVM payouts need a nonce');
  const account = privateKeyToAccount(`0x${input.privateKey.toString('hex')}`);
  if (account.address !== getAddress(input.from))
    throw new ChainError('wrong_key', 'The signing key does not match the hot wallet');
  const call =
    input.token.contract === null
      ? { to: getAddress(input.to), value: input.amountBase, data: undefined }
      : {
          to: getAddress(input.token.contract),
          value: 0n,
          data: encodeFunctionData({
            abi: ERC20_ABI,
            functionName: 'transfer',
            args: [getAddress(input.to), input.amountBase],
          }),
        };
  let gas: bigint;
  try {
    gas = await ctx.client.estimateGas({ account: account.address, ...call });
  } catch (error) {
    if (isRevert(error))
      throw new ChainError('payout_rejected', `The transfer would revert: ${firstLine(error)}`, {
        cause: error,
      });
    throw error;
  }
  const fees = await feesPerGas(ctx);
  return signCall(ctx, {
    privateKey: input.privateKey,
    tx: { nonce: input.nonce, gas: (gas * 12n) / 10n, ...call },
    fees,
  });
}
