import { afterEach } from 'vitest';
import type { Order } from '../../src/domain/order.ts';
import { deliverWebhooks } from '../../src/services/deliver-webhooks.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { type Harness, makeHarness } from './harness.ts';
import { moveOrder, openOrder } from './webhook-orders.ts';
import { useReceivers } from './webhook-receiver.ts';

export const HOUR = 3600_000;

/**
 * The set-up of the webhook delivery tests: a harness whose database clock is manual (retries are
 * reached by moving it, not by waiting) and short request timeouts, real receivers on 127.0.0.1,
 * all closed after each test.
 */
export function useWebhookDelivery() {
  let h: Harness | undefined;
  const receiver = useReceivers();
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });
  const harness = () => {
    if (!h) throw new Error('call setup() first');
    return h;
  };
  return {
    /** A fresh harness for this test, with webhook settings over the tests' defaults. */
    async setup(webhooks: Record<string, unknown> = {}): Promise<Harness> {
      h = await makeHarness({ webhooks: { timeoutMs: 300, pollIntervalMs: 20, ...webhooks } });
      return h;
    },
    receiver,
    /** One round of the delivery worker. */
    deliver: () => deliverWebhooks(harness().rt),
    /** A collection of `m` that received a payment, so it has an ORDER_PENDING event to send. */
    async paidOrder(m: MerchantCreated, orderId: string): Promise<Order> {
      return moveOrder(harness(), await openOrder(harness(), m, orderId), 'PENDING');
    },
  };
}
