import { createOrder } from '../db/repositories/orders.ts';
import { queuedPayoutTotals } from '../db/repositories/payouts.ts';
import { AppError, MESSAGES, validationError } from '../domain/errors.ts';
import { isAddressForChain, normaliseAddress } from '../keys/address-format.ts';
import { newId } from '../lib/ids.ts';
import { type Deps, requireKeys } from './deps.ts';
import type { Merchant } from './merchant-directory.ts';
import { assertSameParams, paramsKeyOf, textField, validateOrderInput } from './order-input.ts';

/** The interface's PaymentAddress for a payout (no uid, no paymentUrl). */
export interface PayoutCreated {
  address: string;
  amount: string;
  symbol: string;
  chain: string;
  orderId: string;
  expiredTime: number;
}

/**
 * Accepts a payout from the chain's hot wallet to `receiveAddress` and queues it in INIT; the worker
 * signs and sends it. Validates the address for the chain (`ReceiveAddress error`), refuses with 422
 * when the hot wallet cannot cover it on top of the payouts already queued, and is idempotent on
 * (merchant, orderId) like collections.
 */
export async function createPayout(
  deps: Deps,
  merchant: Merchant,
  data: Record<string, unknown>,
): Promise<PayoutCreated> {
  let receiveAddress: string | null = null;
  const input = await validateOrderInput(deps, merchant.kind, data, () => {
    receiveAddress = textField(data, 'receiveAddress');
    if (!receiveAddress) throw validationError(MESSAGES.receiveAddressBlank);
  });
  const destination = receiveAddress as unknown as string;
  if (!isAddressForChain(input.chain, destination)) throw validationError(MESSAGES.receiveAddressError);
  const to = normaliseAddress(input.chain, destination);
  const hot = requireKeys(deps).hotWallet(input.chain);
  if (to.toLowerCase() === hot.address.toLowerCase()) throw validationError(MESSAGES.receiveAddressError);
  const now = deps.clock.now();
  const orderId = input.orderId ?? newId('ord');
  const paramsKey = paramsKeyOf({
    type: 'PAYOUT',
    chain: input.chain,
    symbol: input.token.symbol,
    amount: input.amountBase.toString(),
    uid: input.uid,
    receiveAddress: to,
  });
  if (deps.payoutFunding) {
    const queued = queuedPayoutTotals(deps.db, input.chain, input.token.symbol);
    const verdict = await deps.payoutFunding.canFund({
      token: input.token,
      from: hot.address,
      to,
      amountBase: input.amountBase,
      queuedBase: queued.amountBase,
      queuedCount: queued.count,
    });
    if (!verdict.ok) {
      deps.logger.warn(
        { orderId, chain: input.chain, symbol: input.token.symbol, reason: verdict.reason },
        'payout refused',
      );
      throw new AppError('insufficient_balance', verdict.reason);
    }
  }
  const result = await createOrder(deps.db, {
    order: {
      merchantId: merchant.id,
      orderId,
      uid: input.uid,
      type: 'PAYOUT',
      chain: input.chain,
      symbol: input.token.symbol,
      tokenContract: input.token.contract,
      decimals: input.token.decimals,
      amount: input.amount,
      amountBase: input.amountBase,
      fee: deps.config.orders.handlingFee,
      address: hot.address,
      receiveAddress: to,
      expiresAt: now + deps.config.orders.payoutTtlSeconds * 1000,
      paramsKey,
    },
    family: null,
    derive: () => {
      throw new Error('payouts do not take deposit addresses');
    },
    now,
  });
  if (!result.created) assertSameParams(result.paramsKey, paramsKey);
  else
    deps.logger.info(
      { orderId, chain: input.chain, symbol: input.token.symbol, amount: input.amount },
      'payout queued',
    );
  const order = result.order;
  return {
    address: order.address,
    amount: order.amount,
    symbol: order.symbol,
    chain: order.chain,
    orderId: order.orderId,
    expiredTime: Math.floor(order.expiresAt / 1000),
  };
}
