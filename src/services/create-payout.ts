import { findOrderByMerchantOrderId, orderParamsKey } from '../db/repositories/orders.ts';
import { acceptPayout } from '../db/repositories/payouts.ts';
import type { Chain } from '../domain/chains.ts';
import { AppError, MESSAGES, validationError } from '../domain/errors.ts';
import { insufficientFunds } from '../domain/ledger.ts';
import { feeToBase } from '../domain/money.ts';
import type { Order } from '../domain/order.ts';
import {
  checkAllowlist,
  checkDailyPayouts,
  checkSinglePayout,
  limitsFor,
  needsApproval,
} from '../domain/payout-limits.ts';
import { isAddressForChain, normaliseAddress } from '../keys/address-format.ts';
import { newId } from '../lib/ids.ts';
import { type Deps, requireKeys } from './deps.ts';
import type { Merchant } from './merchant-directory.ts';
import { assertSameParams, paramsKeyOf, validateOrderInput } from './order-input.ts';
import { hotWalletShortfall } from './payout-funding.ts';

/** The merchant's payout with that orderId and the parameters it was created with, if any. */
async function findPayout(deps: Deps, merchantId: string, orderId: string) {
  const order = findOrderByMerchantOrderId(deps.db, merchantId, orderId);
  return order ? { order, paramsKey: orderParamsKey(deps.db, order.id) ?? '' } : null;
}

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
 * signs and sends it. Idempotent on (merchant, orderId) like collections. Refuses with 400 a bad
 * address (`ReceiveAddress error`), and with 422: a payout above the merchant's single or daily
 * limit or to an address off its allowlist, one the merchant's available balance cannot cover with
 * its fee (`Insufficient funds. balance: …`), or one the hot wallet cannot pay on top of the
 * payouts already queued. The daily, ledger and hot-wallet checks are decided inside the write
 * transaction that inserts the payout and freezes `amount + fee`, so concurrent requests can never
 * commit more than there is. A payout above `approvalAbove` is accepted in INIT with the reason
 * `Waiting for approval.` and is not signed until the operator approves it.
 */
export async function createPayout(
  deps: Deps,
  merchant: Merchant,
  data: Record<string, unknown>,
): Promise<PayoutCreated> {
  const input = await validateOrderInput(deps, merchant.kind, data, 'payout');
  const destination = input.receiveAddress as string;
  if (!isAddressForChain(input.chain, destination)) throw validationError(MESSAGES.receiveAddressError);
  const to = normaliseAddress(input.chain, destination);
  const hot = requireKeys(deps).hotWallet(input.chain);
  if (to.toLowerCase() === hot.address.toLowerCase()) throw validationError(MESSAGES.receiveAddressError);
  const orderId = input.orderId ?? newId('ord');
  const paramsKey = paramsKeyOf({
    type: 'PAYOUT',
    chain: input.chain,
    symbol: input.token.symbol,
    amount: input.amountBase.toString(),
    uid: input.uid,
    receiveAddress: to,
  });
  const known = await findPayout(deps, merchant.id, orderId);
  if (known) {
    assertSameParams(known.paramsKey, paramsKey);
    return paymentAddressOf(known.order);
  }
  const settings = deps.config.payouts;
  const own = settings.merchants[merchant.id];
  const limits = limitsFor(settings.limits, own, input.token.symbol);
  const { decimals } = input.token;
  checkSinglePayout(limits, input.amountBase, decimals);
  checkAllowlist(allowlistOf(own?.allowedAddresses?.[input.chain], input.chain), to);
  const feeBase = feeToBase(deps.config.orders.handlingFee, decimals);
  const balanceReadAt = deps.clock.now();
  const wallet = deps.payoutFunding
    ? await deps.payoutFunding.read({
        token: input.token,
        from: hot.address,
        to,
        amountBase: input.amountBase,
      })
    : null;
  const approval = needsApproval(limits, input.amountBase, decimals) ? MESSAGES.waitingForApproval : null;
  const now = deps.clock.now();
  const result = await acceptPayout(deps.db, {
    order: {
      merchantId: merchant.id,
      orderId,
      uid: input.uid,
      type: 'PAYOUT',
      chain: input.chain,
      symbol: input.token.symbol,
      tokenContract: input.token.contract,
      decimals,
      amount: input.amount,
      amountBase: input.amountBase,
      fee: deps.config.orders.handlingFee,
      address: hot.address,
      receiveAddress: to,
      expiresAt: now + deps.config.orders.payoutTtlSeconds * 1000,
      paramsKey,
      reason: approval,
    },
    freezeBase: settings.requireMerchantBalance ? input.amountBase + feeBase : null,
    approval,
    nativeSymbol: wallet?.native.symbol ?? null,
    balanceReadAt,
    dayStart: now - DAY_MS,
    now,
    judge(facts) {
      if (limits.dailyAmount !== null)
        checkDailyPayouts(limits, facts.paidToday(), input.amountBase, decimals);
      if (settings.requireMerchantBalance) {
        const { available } = facts.balance();
        if (available < input.amountBase + feeBase)
          throw insufficientFunds({ available, amountBase: input.amountBase, feeBase, decimals });
      }
      const shortfall = wallet
        ? hotWalletShortfall(wallet, facts.hotWalletCommitted(), input.amountBase)
        : null;
      if (shortfall) throw new AppError('insufficient_balance', shortfall);
    },
  }).catch((error: unknown) => {
    if (error instanceof AppError && REFUSALS.has(error.code)) {
      deps.logger.warn(
        {
          orderId,
          merchantId: merchant.id,
          chain: input.chain,
          symbol: input.token.symbol,
          amount: input.amount,
          reason: error.detail,
        },
        'payout refused',
      );
    }
    throw error;
  });
  if (!result.created) assertSameParams(result.paramsKey, paramsKey);
  else
    deps.logger.info(
      {
        orderId,
        chain: input.chain,
        symbol: input.token.symbol,
        amount: input.amount,
        ...(approval ? { awaitingApproval: true } : {}),
      },
      approval ? 'payout queued; waiting for approval' : 'payout queued',
    );
  return paymentAddressOf(result.order);
}

const DAY_MS = 24 * 3600_000;
const REFUSALS = new Set(['insufficient_balance', 'insufficient_funds', 'payout_refused']);

function paymentAddressOf(order: Order): PayoutCreated {
  return {
    address: order.address,
    amount: order.amount,
    symbol: order.symbol,
    chain: order.chain,
    orderId: order.orderId,
    expiredTime: Math.floor(order.expiresAt / 1000),
  };
}

/** A merchant's allowlist for a chain in the project's spelling of addresses; null when none is configured. */
function allowlistOf(addresses: string[] | undefined, chain: Chain): Set<string> | null {
  if (addresses === undefined) return null;
  return new Set(addresses.filter((a) => isAddressForChain(chain, a)).map((a) => normaliseAddress(chain, a)));
}
