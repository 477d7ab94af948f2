import { type Address, encodeFunctionData, getAddress } from 'viem';
import { ChainError } from '../../errors.ts';
import type { SweepQuote, TokenSpec } from '../../port.ts';
import type { EvmContext } from '../context.ts';
import { ERC20_ABI } from '../erc20.ts';
import { firstLine, isRevert } from '../errors.ts';
import { balance } from './balance.ts';
import { type FeesPerGas, feesPerGas } from './fees.ts';

/** Gas of a plain value transfer between accounts (no code at either end). */
export const NATIVE_TRANSFER_GAS = 21_000n;

/** The most a transaction at `fees` pays per gas (what the node checks the balance against). */
export const maxPricePerGas = (fees: FeesPerGas): bigint =>
  'gasPrice' in fees ? fees.gasPrice : fees.maxFeePerGas;

/** `value × factor`, rounded up (factor a small decimal such as 1.25). */
export function scaleUp(value: bigint, factor: number): bigint {
  const thousandths = BigInt(Math.ceil(factor * 1000));
  return (value * thousandths + 999n) / 1000n;
}

/**
 * The gas limit Kassa gives a sweep's token transfer: the node's estimate plus 20 %, as payouts.
 * Throws ChainError `payout_rejected` when the token would revert it.
 */
export async function tokenTransferGas(
  ctx: EvmContext,
  args: { from: string; to: string; contract: string; amountBase: bigint },
): Promise<bigint> {
  try {
    const gas = await ctx.client.estimateGas({
      account: getAddress(args.from),
      to: getAddress(args.contract),
      data: encodeFunctionData({
        abi: ERC20_ABI,
        functionName: 'transfer',
        args: [getAddress(args.to), args.amountBase],
      }),
    });
    return (gas * 12n) / 10n;
  } catch (error) {
    if (isRevert(error))
      throw new ChainError('payout_rejected', `The transfer would revert: ${firstLine(error)}`, {
        cause: error,
      });
    throw error;
  }
}

/**
 * Prices a sweep on an EVM chain. A token: the deposit address needs gas limit × today's highest
 * fee per gas × `margin` in native coin; the hot wallet tops up what it lacks (and pays a plain
 * transfer's fee for that). The native coin: it moves its balance minus 21,000 gas at today's fee.
 */
export async function sweepQuote(
  ctx: EvmContext,
  args: { from: string; to: string; token: TokenSpec; margin: number },
): Promise<SweepQuote> {
  const fees = await feesPerGas(ctx);
  const price = maxPricePerGas(fees);
  const have = await ctx.client.getBalance({ address: args.from as Address });
  const quote = { delegateSun: 0n, unsweepableBase: 0n, haveBase: have };
  if (args.token.contract === null) {
    const fee = NATIVE_TRANSFER_GAS * price;
    const amount = have > fee ? have - fee : 0n;
    return { ...quote, mode: 'self', amountBase: amount, needBase: fee, topUpBase: 0n, feeBase: fee };
  }
  const amount = await balance(ctx, { address: args.from, token: args.token });
  if (amount === 0n)
    return { ...quote, mode: 'topup', amountBase: 0n, needBase: 0n, topUpBase: 0n, feeBase: 0n };
  const gas = await tokenTransferGas(ctx, {
    from: args.from,
    to: args.to,
    contract: args.token.contract,
    amountBase: amount,
  });
  const need = gas * scaleUp(price, args.margin);
  const topUp = need > have ? need - have : 0n;
  const topUpFee = topUp > 0n ? NATIVE_TRANSFER_GAS * price : 0n;
  return {
    ...quote,
    mode: 'topup',
    amountBase: amount,
    needBase: need,
    topUpBase: topUp,
    feeBase: topUp + topUpFee,
  };
}
