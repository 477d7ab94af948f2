import type { TokenSpec } from '../../port.ts';
import { toHex41 } from '../address.ts';
import type { TronContext } from '../context.ts';
import { FALLBACK_TRANSFER_ENERGY, tokenTransferBurn, trxTransferBurn } from '../fees.ts';
import { chainParams, resources } from './account.ts';
import { TransferReverts, transferEnergy } from './contract-call.ts';

/** A fresh address nobody holds tokens at: simulating a transfer to it prices the worst case (a new holder). */
const PROBE_ADDRESS = '41956eb29649d419ec338e42a1dc44dc3b13f14a69';

/**
 * The TRX a payout burns at most, after the wallet's staked and free resources: a new account's
 * activation for TRX, the energy of a transfer to a new holder for a token when the recipient is
 * not known yet (`to === from`).
 */
export async function payoutFeeEstimate(
  ctx: TronContext,
  args: { from: string; to: string; token: TokenSpec; amountBase: bigint },
): Promise<bigint> {
  const params = await chainParams(ctx);
  const wallet = await resources(ctx, { address: args.from });
  // `to === from` means the recipient is not known yet: price the worst case (a new account / holder)
  const knownTo = args.to !== args.from ? args.to : null;
  if (args.token.contract === null) {
    const exists = knownTo !== null && (await resources(ctx, { address: knownTo })).exists;
    return trxTransferBurn(exists, wallet, params, false);
  }
  let energy: bigint;
  try {
    energy = await transferEnergy(ctx, {
      owner: toHex41(args.from),
      contract: toHex41(args.token.contract),
      to: knownTo ?? PROBE_ADDRESS,
      amount: args.amountBase,
    });
  } catch (error) {
    if (!(error instanceof TransferReverts)) throw error;
    energy = FALLBACK_TRANSFER_ENERGY; // e.g. the wallet lacks the tokens: the balance check reports that
  }
  return tokenTransferBurn(energy, wallet, params, false);
}
