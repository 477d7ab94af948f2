import { AppError } from './errors.ts';
import { feeToBase, formatAmount } from './money.ts';
import type { Order } from './order.ts';

/**
 * A merchant's money per chain and symbol, as the sum of an append-only ledger (DESIGN.md section
 * 11): `available` can be paid out, `frozen` is held by payouts not final yet; `total` is both.
 */
export interface Balance {
  available: bigint;
  frozen: bigint;
}

export type LedgerKind =
  | 'collection_credit'
  | 'payout_freeze'
  | 'payout_debit'
  | 'payout_release'
  | 'adjustment';

/** One movement: how much each part of a balance changes. */
export interface Movement {
  kind: LedgerKind;
  available: bigint;
  frozen: bigint;
}

export const ZERO_BALANCE: Balance = { available: 0n, frozen: 0n };

/**
 * The balance after a movement. Throws `ledger_negative` when either part would go below zero:
 * nothing in Kassa may spend money a merchant does not have, so the caller's transaction rolls back.
 */
export function applyMovement(balance: Balance, movement: Movement): Balance {
  const next = {
    available: balance.available + movement.available,
    frozen: balance.frozen + movement.frozen,
  };
  if (next.available < 0n || next.frozen < 0n) {
    throw new AppError(
      'ledger_negative',
      `A ${movement.kind} would take the balance below zero (available ${balance.available}, frozen ${balance.frozen}).`,
    );
  }
  return next;
}

/** What a collection that reached SUCCESS credits: what arrived minus the handling fee, never below zero. */
export function collectionCredit(order: Order): Movement | null {
  const received = order.actualAmountBase ?? 0n;
  const credit = received - feeToBase(order.fee, order.decimals);
  return credit > 0n ? { kind: 'collection_credit', available: credit, frozen: 0n } : null;
}

/** The part of a payout that is frozen when it is accepted: its amount plus the handling fee. */
export function payoutTotal(order: Pick<Order, 'amountBase' | 'fee' | 'decimals'>): bigint {
  return order.amountBase + feeToBase(order.fee, order.decimals);
}

/** Freezing `total` for a payout: it leaves `available` and waits in `frozen`. */
export function payoutFreeze(total: bigint): Movement {
  return { kind: 'payout_freeze', available: -total, frozen: total };
}

/** A payout that reached SUCCESS: its frozen amount leaves the balance for good. */
export function payoutDebit(frozen: bigint): Movement {
  return { kind: 'payout_debit', available: 0n, frozen: -frozen };
}

/** A payout that ended FAILED or EXPIRED: its frozen amount is available again. */
export function payoutRelease(frozen: bigint): Movement {
  return { kind: 'payout_release', available: frozen, frozen: -frozen };
}

/**
 * The refusal XPay clients already handle:
 * `Insufficient funds. balance: <b> Total required: <t> (<a> amount + <f> fee).`
 */
export function insufficientFunds(input: {
  available: bigint;
  amountBase: bigint;
  feeBase: bigint;
  decimals: number;
}): AppError {
  const f = (v: bigint) => formatAmount(v, input.decimals);
  return new AppError(
    'insufficient_funds',
    `Insufficient funds. balance: ${f(input.available)} Total required: ${f(input.amountBase + input.feeBase)} (${f(input.amountBase)} amount + ${f(input.feeBase)} fee).`,
  );
}
