import { ChainError } from '../../errors.ts';
import type { SignedPayout, TokenSpec } from '../../port.ts';
import { addressOfKey, addressWord, toHex41 } from '../address.ts';
import type { TronContext } from '../context.ts';
import { feeLimitFor, tokenTransferBurn } from '../fees.ts';
import { formatTrx, uint256 } from '../text.ts';
import type { PayoutContract } from '../transaction.ts';
import { chainParams, resources } from './account.ts';
import { TransferReverts, transferEnergy } from './contract-call.ts';
import { signCall } from './sign-call.ts';

const TRANSFER_SELECTOR = 'a9059cbb';

/**
 * Builds and signs a payout locally: a TransferContract for TRX, a TRC-20 `transfer` with a
 * fee_limit from the energy estimate for a token, referencing the solidified block (on every branch
 * it could land on) and expiring `expirationMs` after the head block. Throws ChainError
 * `payout_rejected` (not an address, not positive, too large, the transfer reverts),
 * `fee_above_cap` (the energy costs more than the cap), `wallet_underfunded` (the wallet cannot
 * burn what it needs: sent once topped up), `wrong_key`.
 */
export async function signPayout(
  ctx: TronContext,
  input: {
    privateKey: Buffer;
    from: string;
    to: string;
    token: TokenSpec;
    amountBase: bigint;
    nonce: number | null;
  },
): Promise<SignedPayout> {
  if (addressOfKey(input.privateKey) !== input.from)
    throw new ChainError('wrong_key', 'The signing key does not match the hot wallet');
  let to: string;
  try {
    to = toHex41(input.to);
  } catch {
    throw new ChainError('payout_rejected', `${input.to} is not a TRON address.`);
  }
  if (input.amountBase <= 0n) throw new ChainError('payout_rejected', 'The amount must be positive.');
  const owner = toHex41(input.from);
  let call: PayoutContract;
  let feeLimit = 0n;
  if (input.token.contract === null) {
    if (input.amountBase > BigInt(Number.MAX_SAFE_INTEGER))
      throw new ChainError('payout_rejected', 'The TRX amount is too large for one transfer.');
    // java-tron refuses an unfunded TRX transfer at broadcast (nothing is burnt); it is retried until it expires
    call = { type: 'TransferContract', owner, to, amountSun: input.amountBase };
  } else {
    const contract = toHex41(input.token.contract);
    const params = await chainParams(ctx);
    let energy: bigint;
    try {
      energy = await transferEnergy(ctx, { owner, contract, to, amount: input.amountBase });
    } catch (error) {
      if (error instanceof TransferReverts)
        throw new ChainError('payout_rejected', `The transfer would revert: ${error.message}`);
      throw error;
    }
    if (energy * params.energyPrice > ctx.feeLimitCap) {
      throw new ChainError(
        'fee_above_cap',
        `${ctx.chain}: the transfer needs ${energy} energy (${formatTrx(energy * params.energyPrice)} TRX), above the fee_limit cap of ${formatTrx(ctx.feeLimitCap)} TRX; not sent`,
      );
    }
    feeLimit = feeLimitFor(energy, params, ctx.feeLimitCap);
    const wallet = await resources(ctx, { address: input.from });
    const need = tokenTransferBurn(energy, wallet, params, true);
    if (wallet.balance < need) {
      // it would be included, run out of energy and burn the TRX it has: wait for a top-up instead
      throw new ChainError(
        'wallet_underfunded',
        `${ctx.chain}: hot wallet ${input.from} holds ${formatTrx(wallet.balance)} TRX; this transfer burns about ${formatTrx(need)} TRX for energy and bandwidth; not sent until it is topped up`,
      );
    }
    call = {
      type: 'TriggerSmartContract',
      owner,
      contract,
      data: TRANSFER_SELECTOR + addressWord(to) + uint256(input.amountBase),
    };
  }
  return signCall(ctx, { call, feeLimit, privateKey: input.privateKey });
}
