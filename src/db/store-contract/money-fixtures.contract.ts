import { expect } from 'vitest';
import { AppError } from '../../domain/errors.ts';
import { insufficientFunds } from '../../domain/ledger.ts';
import type { Order } from '../../domain/order.ts';
import { transition } from '../../domain/order-state.ts';
import type { PayoutFacts } from '../repositories/payout-acceptance.ts';
import type { NewAttempt, NewOrder } from '../store.ts';
import { store, T0 } from './context.ts';

// What the money contract's files share: a merchant's balance key, payouts accepted the way
// createPayout accepts them, signed attempts, and the ledger's invariant.

/** mch_a's USDT on ETH. */
export const KEY = { merchantId: 'mch_a', chain: 'ETH', symbol: 'USDT', decimals: 6 };

/** The hot wallet every payout fixture pays from. */
export const HOT = '0xhot';

/**
 * `n` calls of `fn` started together. On PostgreSQL they race over the pool's connections, opened
 * first (a read each, at once), so the racers overlap instead of the first finishing while the pool
 * still connects.
 */
export async function together<T>(n: number, fn: (i: number) => Promise<T>) {
  await Promise.all(Array.from({ length: n }, () => store.listBalances({ merchantId: 'warm-up' })));
  return Promise.allSettled(Array.from({ length: n }, (_, i) => fn(i)));
}

export const fulfilled = <T>(results: PromiseSettledResult<T>[]) =>
  results.filter((r): r is PromiseFulfilledResult<T> => r.status === 'fulfilled').map((r) => r.value);

export const rejected = (results: PromiseSettledResult<unknown>[]) =>
  results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason);

/** Credits `amountBase` to a balance (mch_a's USDT on ETH unless said otherwise). */
export const fund = (amountBase: bigint, key: Partial<typeof KEY> = {}) =>
  store.adjustBalance({ ...KEY, ...key, amountBase, reason: 'top-up', now: T0 });

/** A payout order of mch_a on ETH; `over` replaces fields. */
export function payoutOrder(
  orderId: string,
  over: Partial<NewOrder> = {},
): NewOrder & { address: string; reason: string | null } {
  return {
    merchantId: KEY.merchantId,
    orderId,
    uid: null,
    type: 'PAYOUT',
    chain: 'ETH',
    symbol: 'USDT',
    tokenContract: '0x00000000000000000000000000000000000000aa',
    decimals: 6,
    amount: '0.0001',
    amountBase: 100n,
    fee: '0',
    receiveAddress: '0xrecipient',
    expiresAt: T0 + 3_600_000,
    paramsKey: `payout-${orderId}`,
    ...over,
    address: over.address ?? HOT,
    reason: null,
  };
}

/** Refuses, as createPayout does, a payout whose amount the merchant's available balance does not cover. */
export const needsBalance = (amountBase: bigint) => (facts: PayoutFacts) => {
  const { available } = facts.balance();
  if (available < amountBase) throw insufficientFunds({ available, amountBase, feeBase: 0n, decimals: 6 });
};

/**
 * Accepts a payout of `amountBase` that freezes what it pays (the ledger check on), unless `freeze`
 * says otherwise, judged by `judge` (by default: the balance must cover it).
 */
export function accept(
  orderId: string,
  input: {
    amountBase?: bigint;
    freeze?: bigint | null;
    approval?: string | null;
    judge?: (facts: PayoutFacts) => void;
    order?: Partial<NewOrder>;
    now?: number;
  } = {},
) {
  const amountBase = input.amountBase ?? 100n;
  const now = input.now ?? T0;
  return store.acceptPayout({
    order: payoutOrder(orderId, { amountBase, ...input.order }),
    freezeBase: input.freeze === undefined ? amountBase : input.freeze,
    approval: input.approval ?? null,
    nativeSymbol: 'ETH',
    balanceReadAt: now,
    dayStart: now - 24 * 3600_000,
    judge: input.judge ?? needsBalance(amountBase),
    now,
  });
}

/** A signed attempt of `order` at `nonce`; `over` replaces fields. */
export function attempt(
  id: string,
  order: Order,
  nonce: number | null,
  over: Partial<NewAttempt> = {},
): NewAttempt {
  return {
    id,
    orderRef: order.id,
    chain: order.chain,
    fromAddress: HOT,
    nonce,
    txHash: `0x${id}`,
    rawTx: `raw-${id}`,
    status: 'signed',
    validUntil: null,
    slot: nonce === null ? 'inputs' : `nonce ${nonce}`,
    replacesAttempt: null,
    maxFeePerGas: '100',
    maxPriorityFeePerGas: '1',
    ...over,
  };
}

/** Commits `order` (as last read) to a signed attempt, as the sender does before broadcasting. */
export function sign(order: Order, signed: NewAttempt, now = T0 + 1) {
  const status = order.status === 'INIT' ? transition('PAYOUT', 'INIT', 'broadcast') : order.status;
  return store.commitSignedPayout({ attempt: signed, transition: { order, patch: { status } }, now });
}

/** The payout as stored now. */
export async function current(order: Order): Promise<Order> {
  const found = await store.findOrderById(order.id);
  if (!found) throw new AppError('order_not_found', `no order ${order.id}`);
  return found;
}

/**
 * The ledger's invariant: every balance is the sum of its entries, and neither part is below zero.
 * Returns the balances by key for further checks.
 */
export async function expectLedgerConsistent() {
  const sums = await store.sumLedgerEntries();
  const balances = await store.listBalances();
  const byKey = new Map(balances.map((b) => [`${b.merchantId}/${b.chain}/${b.symbol}`, b]));
  expect([...byKey.keys()].sort()).toEqual([...sums.keys()].sort());
  for (const [key, sum] of sums) {
    const b = byKey.get(key);
    expect({ key, available: b?.available, frozen: b?.frozen }).toEqual({ key, ...sum });
    expect(sum.available >= 0n && sum.frozen >= 0n).toBe(true);
  }
  return byKey;
}
