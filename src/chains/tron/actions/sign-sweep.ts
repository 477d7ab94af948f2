import { ChainError } from '../../errors.ts';
import type { SignedSweep, TokenSpec } from '../../port.ts';
import { addressOfKey, addressWord, toHex41 } from '../address.ts';
import type { TronContext } from '../context.ts';
import { feeLimitFor, tokenTransferBurn, trxTransferBurn } from '../fees.ts';
import { formatTrx, uint256 } from '../text.ts';
import { chainParams, resources } from './account.ts';
import { balance } from './balance.ts';
import { TransferReverts, transferEnergy } from './contract-call.ts';
import { signCall } from './sign-call.ts';

const TRANSFER_SELECTOR = 'a9059cbb';

/**
 * Signs the sweep of a deposit address with its own key: its whole TRC-20 balance (energy from
 * what was lent to it or from the TRX it was sent to burn, with a fee_limit from the estimate), or
 * its whole TRX minus the bandwidth (and a new recipient's activation) it burns. Throws ChainError
 * `wallet_underfunded` when the address cannot pay its transfer's energy and bandwidth now (not
 * activated yet, or the price rose), `payout_rejected` when nothing can move or the token would
 * revert, `fee_above_cap`, `wrong_key`.
 */
export async function signSweep(
  ctx: TronContext,
  input: { privateKey: Buffer; from: string; to: string; token: TokenSpec },
): Promise<SignedSweep> {
  if (addressOfKey(input.privateKey) !== input.from)
    throw new ChainError('wrong_key', 'The signing key does not match the deposit address');
  const params = await chainParams(ctx);
  const deposit = await resources(ctx, { address: input.from });
  const owner = toHex41(input.from);
  const to = toHex41(input.to);
  if (input.token.contract === null) {
    const destination = await resources(ctx, { address: input.to });
    const fee = trxTransferBurn(destination.exists, deposit, params, true);
    if (deposit.balance <= fee)
      throw new ChainError(
        'payout_rejected',
        `${input.from} holds ${formatTrx(deposit.balance)} TRX, not more than the ${formatTrx(fee)} TRX its transfer burns`,
      );
    const amount = deposit.balance - fee;
    const signed = await signCall(ctx, {
      call: { type: 'TransferContract', owner, to, amountSun: amount },
      feeLimit: 0n,
      privateKey: input.privateKey,
    });
    return { ...signed, amountBase: amount };
  }
  const amount = await balance(ctx, { address: input.from, token: input.token });
  if (amount === 0n) throw new ChainError('payout_rejected', `${input.from} holds no ${input.token.symbol}`);
  const contract = toHex41(input.token.contract);
  let energy: bigint;
  try {
    energy = await transferEnergy(ctx, { owner, contract, to, amount });
  } catch (error) {
    if (error instanceof TransferReverts)
      throw new ChainError('payout_rejected', `The transfer would revert: ${error.message}`);
    throw error;
  }
  if (!deposit.exists)
    throw new ChainError(
      'wallet_underfunded',
      `${input.from} is not activated yet: it needs a TRX transfer first`,
    );
  const burn = tokenTransferBurn(energy, deposit, params, true);
  if (deposit.balance < burn)
    throw new ChainError(
      'wallet_underfunded',
      `${input.from} holds ${formatTrx(deposit.balance)} TRX and ${deposit.energyLeft} energy; its transfer burns about ${formatTrx(burn)} TRX now`,
    );
  if (energy * params.energyPrice > ctx.feeLimitCap)
    throw new ChainError(
      'fee_above_cap',
      `${ctx.chain}: the sweep needs ${energy} energy (${formatTrx(energy * params.energyPrice)} TRX), above the fee_limit cap of ${formatTrx(ctx.feeLimitCap)} TRX`,
    );
  const signed = await signCall(ctx, {
    call: {
      type: 'TriggerSmartContract',
      owner,
      contract,
      data: TRANSFER_SELECTOR + addressWord(to) + uint256(amount),
    },
    feeLimit: feeLimitFor(energy, params, ctx.feeLimitCap),
    privateKey: input.privateKey,
  });
  return { ...signed, amountBase: amount };
}
