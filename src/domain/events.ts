import type { OrderStatus } from './order.ts';

/** Webhook event types (DESIGN.md section 8). */
export const NOTIFY_TYPES = [
  'ORDER_PENDING',
  'ORDER_PENDING_CONFIRMATION',
  'ORDER_SUCCESS',
  'ORDER_FAILED',
  'ORDER_EXPIRED',
] as const;
export type NotifyType = (typeof NOTIFY_TYPES)[number];

/** The event a transition into `status` emits; INIT (a rollback) emits none. */
export function notifyTypeFor(status: OrderStatus): NotifyType | null {
  switch (status) {
    case 'INIT':
      return null;
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
