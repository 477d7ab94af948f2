import type { OrderTransition } from '../../db/store.ts';

import type { Logger } from '../../lib/logger.ts';

/** Logs every collection a write moves to another status (`collection moved`, or `message` at warn). */
export function logMoves(
  logger: Logger,
  chain: string,
  transitions: OrderTransition[],
  options: { message?: string; level?: 'info' | 'warn' } = {},
): void {
  for (const t of transitions) {
    if (t.patch.status !== t.order.status) {
      logger[options.level ?? 'info'](
        { chain, orderId: t.order.orderId, from: t.order.status, to: t.patch.status },
        options.message ?? 'collection moved',
      );
    }
  }
}
