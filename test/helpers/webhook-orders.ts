import { eq } from 'drizzle-orm';
import { applyOrderTransitions, findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { webhookAttempts } from '../../src/db/schema/webhook-attempts.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import type { Order, OrderStatus } from '../../src/domain/order.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import type { Harness } from './harness.ts';

/** Creates a collection through the signed API and returns it as stored. */
export async function openOrder(h: Harness, m: MerchantCreated, orderId: string): Promise<Order> {
  const res = await h.post('/v1/order/createCollection', m, {
    amount: '2',
    symbol: 'USDT',
    chain: 'TRON',
    orderId,
  });
  if (res.status !== 200) throw new Error(`createCollection answered ${res.status}`);
  const order = findOrderByMerchantOrderId(h.db, m.merchantId, orderId);
  if (!order) throw new Error('order not stored');
  return order;
}

/** Moves an order to `status` the way the scanners do (one transaction with its outbox event). */
export function moveOrder(h: Harness, order: Order, status: OrderStatus): Order {
  const [moved] = applyOrderTransitions(h.db, [{ order, patch: { status } }], h.clock.now());
  if (!moved) throw new Error('no transition applied');
  return moved;
}

/** Every stored event, oldest first. */
export function allEvents(h: Harness) {
  return h.db.select().from(webhookEvents).orderBy(webhookEvents.createdAt, webhookEvents.orderVersion).all();
}

/** One stored event by id. */
export function eventRow(h: Harness, id: string) {
  const row = h.db.select().from(webhookEvents).where(eq(webhookEvents.id, id)).get();
  if (!row) throw new Error(`no event ${id}`);
  return row;
}

/** The attempt rows of one event, oldest first. */
export function attemptRows(h: Harness, eventId: string) {
  return h.db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.eventId, eventId))
    .orderBy(webhookAttempts.id)
    .all();
}
