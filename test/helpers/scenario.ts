import { expect } from 'vitest';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { body, type Harness } from './harness.ts';

/** What GET /v1/order/status answers, as the scenario reads it. */
export interface OrderStatusView {
  status: string;
  actualAmount: string | null;
  reason: string | null;
  transaction: Record<string, unknown> | null;
}

/**
 * A merchant's side of a payment test, shared by the chain families' worlds: create a collection
 * through the signed API, read its status as the merchant does, and list the webhook events of an
 * order. `world` is read at call time (worlds are built in beforeAll); orderIds are `<prefix>-<n>`.
 */
export function merchantScenario(world: () => { h: Harness; m: MerchantCreated }, prefix: string) {
  let n = 0;
  return {
    /** Creates a collection and returns its orderId and deposit address (asserts the API said 200). */
    async collect(chain: string, symbol: string, amount: string) {
      const { h, m } = world();
      const orderId = `${prefix}-${++n}`;
      const r = await body<{ address: string }>(
        await h.post('/v1/order/createCollection', m, { amount, symbol, chain, orderId }),
      );
      expect(r.code).toBe(200);
      return { orderId, address: r.data.address };
    },
    /** The order as GET /v1/order/status shows it (the clock moves on past the per-order limit). */
    async status(orderId: string): Promise<OrderStatusView> {
      const { h, m } = world();
      h.clock.advance(600); // stay clear of the per-order query limit
      return (await body<OrderStatusView>(await h.getSigned('/v1/order/status/{orderId}', m, orderId))).data;
    },
    /** The notify types of the webhook events written for an order, oldest first. */
    eventsOf(orderId: string): string[] {
      return world()
        .h.db.select()
        .from(webhookEvents)
        .all()
        .filter((e) => JSON.parse(e.data).orderId === orderId)
        .map((e) => e.notifyType);
    },
  };
}
