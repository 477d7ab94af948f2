import { AppError } from './errors.ts';
import type { OrderStatus, OrderType } from './order.ts';

/**
 * What can happen to an order. Collections:
 * - `partial_seen`: transfers seen total less than the amount (also after a reorg removed some);
 * - `covered_seen`: transfers total at least the amount, not all final yet;
 * - `settled`: a covering total is final;
 * - `rolled_back`: a reorganisation removed every transfer seen;
 * - `expired`: the time to live ended without a covering payment;
 * - `failed`: the paying transaction failed or vanished and nothing replaced it before expiry.
 * Payouts: `broadcast`, `mined`, `unmined` (reorg), `settled`, `failed`, `expired` (never sent in time).
 */
export type OrderEvent =
  | 'partial_seen'
  | 'covered_seen'
  | 'settled'
  | 'rolled_back'
  | 'expired'
  | 'failed'
  | 'broadcast'
  | 'mined'
  | 'unmined';

function conflict(type: OrderType, from: OrderStatus, event: OrderEvent): never {
  throw new AppError('state_conflict', `A ${type} order in ${from} cannot take the event ${event}.`);
}

/**
 * The only place where an order's status changes: returns the next status for an event, or throws
 * `state_conflict` when the event is not allowed from the current status. Final states accept nothing.
 */
export function transition(type: OrderType, from: OrderStatus, event: OrderEvent): OrderStatus {
  if (from === 'SUCCESS' || from === 'EXPIRED' || from === 'FAILED') return conflict(type, from, event);
  if (type === 'COLLECTION') {
    switch (event) {
      case 'partial_seen':
        return from === 'INIT' || from === 'PENDING' || from === 'PENDING_CONFIRMATION'
          ? 'PENDING'
          : conflict(type, from, event);
      case 'covered_seen':
        return 'PENDING_CONFIRMATION';
      case 'settled':
        return 'SUCCESS';
      case 'rolled_back':
        return from === 'PENDING' || from === 'PENDING_CONFIRMATION' ? 'INIT' : conflict(type, from, event);
      case 'expired':
        return from === 'INIT' || from === 'PENDING' ? 'EXPIRED' : conflict(type, from, event);
      case 'failed':
        return 'FAILED';
      case 'broadcast':
      case 'mined':
      case 'unmined':
        return conflict(type, from, event);
    }
  }
  switch (event) {
    case 'broadcast':
      return from === 'INIT' ? 'PENDING' : conflict(type, from, event);
    case 'mined':
      return from === 'PENDING' ? 'PENDING_CONFIRMATION' : conflict(type, from, event);
    case 'unmined':
      return from === 'PENDING_CONFIRMATION' ? 'PENDING' : conflict(type, from, event);
    case 'settled':
      return from === 'PENDING' || from === 'PENDING_CONFIRMATION' ? 'SUCCESS' : conflict(type, from, event);
    case 'failed':
      return 'FAILED';
    case 'expired':
      return from === 'INIT' ? 'EXPIRED' : conflict(type, from, event);
    case 'partial_seen':
    case 'covered_seen':
    case 'rolled_back':
      return conflict(type, from, event);
  }
}
