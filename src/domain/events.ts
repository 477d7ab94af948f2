import type { OrderStatus } from './order.ts';

/**
 * Webhook event types (DESIGN.md section 8), plus ORDER_REVERTED: a collection fell back to INIT
 * because a chain reorganisation removed every payment seen for it (issue 19).
 */
export const NOTIFY_TYPES = [
  'ORDER_REVERTED',
  'ORDER_PENDING',
  'ORDER_PENDING_CONFIRMATION',
  'ORDER_SUCCESS',
  'ORDER_FAILED',
  'ORDER_EXPIRED',
] as const;
export type NotifyType = (typeof NOTIFY_TYPES)[number];

/**
 * The event a transition into `status` emits. An order only ever moves into INIT when a
 * reorganisation rolls a collection back, hence ORDER_REVERTED.
 */
export function notifyTypeFor(status: OrderStatus): NotifyType {
  switch (status) {
    case 'INIT':
      return 'ORDER_REVERTED';
    case 'PENDING':
      return 'ORDER_PENDING';
    case 'PENDING_CONFIRMATION':
      return 'ORDER_PENDING_CONFIRMATION';
    case 'SUCCESS':
      return 'ORDER_SUCCESS';
    case 'FAILED':
      return 'ORDER_FAILED';
    case 'EXPIRED':
      return 'ORDER_EXPIRED';
  }
}
