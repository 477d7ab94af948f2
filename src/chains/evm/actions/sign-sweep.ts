import { type Address, encodeFunctionData, getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { formatAmount } from '../../../domain/money.ts';
import { ChainError } from '../../errors.ts';
import type { SignedSweep, TokenSpec } from '../../port.ts';
import type { EvmContext } from '../context.ts';
import { ERC20_ABI } from '../erc20.ts';
import { balance } from './balance.ts';
import { type FeesPerGas, feesPerGas } from './fees.ts';
import { signCall } from './sign.ts';
import { maxPricePerGas, NATIVE_TRANSFER_GAS, tokenTransferGas } from './sweep-quote.ts';

/**
 * Today's fees, lowered to what `budget` native coin pays for `gas`: the fee per gas is capped at
 * budget ÷ gas (and the tip with it). Null when that is below what the latest block charges (the
 * transaction would wait unmined): the address needs more native coin first.
 */
async function affordableFees(ctx: EvmContext, gas: bigint, budget: bigint): Promise<FeesPerGas | null> {
  const fees = await feesPerGas(ctx);
  const cap = budget / gas;
  if (cap >= maxPricePerGas(fees)) return fees;
  if ('gasPrice' in fees) {
    const nodePrice = await ctx.client.getGasPrice();
    return cap >= nodePrice ? { gasPrice: cap } : null;
  }
  const block = await ctx.client.getBlock({ blockTag: 'latest' });
  const baseFee = block.baseFeePerGas ?? 0n;
  if (cap <= baseFee) return null;
  const tip = fees.maxPriorityFeePerGas < cap - baseFee ? fees.maxPriorityFeePerGas : cap - baseFee;
  return { maxFeePerGas: cap, maxPriorityFeePerGas: tip };
}

/**
 * Signs the sweep of a deposit address with its own key at `nonce`: the whole token balance (an
 * ERC-20 `transfer`, gas from the native coin the hot wallet topped up), or the whole native balance
 * minus 21,000 gas at today's fee. Throws ChainError `wallet_underfunded` when the address's native
 * coin no longer pays the transfer at the fee the latest block charges (fees rose since the
 * top-up), `payout_rejected` when there is nothing to move or the token would revert,
 * `wrong_key`, `bad_request` without a nonce.
 */
export async function signSweep(
  ctx: EvmContext,
  input: { privateKey: Buffer; from: string; to: string; token: TokenSpec; nonce: number | null },
): Promise<SignedSweep> {
  if (input.nonce === null) throw new ChainError('bad_request', 'EVM sweeps need a nonce');
  const account = privateKeyToAccount(`0x${input.privateKey.toString('hex')}`);
  if (account.address !== getAddress(input.from))
    throw new ChainError('wrong_key', 'The signing key does not match the deposit address');
  const native = await ctx.client.getBalance({ address: account.address as Address });
  const to = getAddress(input.to);
  if (input.token.contract === null) {
    const fees = await feesPerGas(ctx);
    const fee = NATIVE_TRANSFER_GAS * maxPricePerGas(fees);
    if (native <= fee)
      throw new ChainError(
        'payout_rejected',
        `${input.from} holds ${formatAmount(native, 18)}, not more than the ${formatAmount(fee, 18)} its transfer burns`,
      );
    const signed = await signCall(ctx, {
      privateKey: input.privateKey,
      tx: { nonce: input.nonce, gas: NATIVE_TRANSFER_GAS, to, value: native - fee, data: undefined },
      fees,
    });
    return { ...signed, amountBase: native - fee };
  }
  const amount = await balance(ctx, { address: input.from, token: input.token });
  if (amount === 0n) throw new ChainError('payout_rejected', `${input.from} holds no ${input.token.symbol}`);
  const gas = await tokenTransferGas(ctx, {
    from: input.from,
    to,
    contract: input.token.contract,
    amountBase: amount,
  });
  const fees = await affordableFees(ctx, gas, native);
  if (!fees) {
    const want = gas * maxPricePerGas(await feesPerGas(ctx));
    throw new ChainError(
      'wallet_underfunded',
      `${input.from} holds ${formatAmount(native, 18)} native coin; its transfer needs about ${formatAmount(want, 18)} at today's fee`,
    );
  }
  const signed = await signCall(ctx, {
    privateKey: input.privateKey,
    tx: {
      nonce: input.nonce,
      gas,
      to: getAddress(input.token.contract),
      value: 0n,
      data: encodeFunctionData({ abi: ERC20_ABI, functionName: 'transfer', args: [to, amount] }),
    },
    fees,
  });
  return { ...signed, amountBase: amount };
}
