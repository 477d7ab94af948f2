import type { Problem } from './check-orders.ts';
import type { SoakDatabase } from './database.ts';
import type { SoakReceiver } from './receiver.ts';

/**
 * Webhooks: every event delivered and acknowledged, an order's next event sent only after the
 * previous one was acknowledged, no bad signature. Returns when each event was first acknowledged
 * and how many were sent out of order.
 */
export function checkWebhooks(db: SoakDatabase, receiver: SoakReceiver, problem: Problem) {
  const { q } = db;
  const undelivered =
    q<{ n: number }>("SELECT count(*) AS n FROM webhook_events WHERE status != 'delivered'")[0]?.n ?? 0;
  if (undelivered > 0) problem(`${undelivered} webhook events not delivered`);
  const acked = new Map<string, number>();
  for (const a of receiver.arrivals)
    if (a.answered === 200 && !acked.has(a.eventId)) acked.set(a.eventId, a.at);
  const events = q<{ id: string; order_ref: string; order_version: number }>(
    'SELECT id, order_ref, order_version FROM webhook_events WHERE order_ref IS NOT NULL ORDER BY order_ref, order_version',
  );
  const firstArrival = new Map<string, number>();
  for (const a of receiver.arrivals) if (!firstArrival.has(a.eventId)) firstArrival.set(a.eventId, a.at);
  let outOfOrder = 0;
  for (let i = 1; i < events.length; i++) {
    const prev = events[i - 1] as (typeof events)[number];
    const cur = events[i] as (typeof events)[number];
    if (prev.order_ref !== cur.order_ref) continue;
    const prevAck = acked.get(prev.id);
    const curFirst = firstArrival.get(cur.id);
    if (prevAck === undefined || curFirst === undefined || curFirst < prevAck) outOfOrder++;
  }
  for (const e of events) if (!acked.has(e.id)) problem(`event ${e.id} never acknowledged by the receiver`);
  if (outOfOrder > 0)
    problem(`${outOfOrder} events sent before the previous event of their order was acknowledged`);
  if (receiver.counts.badSignature > 0)
    problem(`${receiver.counts.badSignature} webhooks with a bad signature`);
  return { acked, outOfOrder };
}
