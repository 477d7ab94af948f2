import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type {
  checkoutState,
  collectionCreated,
  merchantBalance,
  notifyOrder,
  payinOrder,
  payoutCreated,
  supportSymbol,
  transaction,
  webhookEvent,
} from '../../../src/http/openapi/resources.ts';
import type {
  CheckoutOrder,
  CollectionCreated,
  MerchantBalance,
  NotifyOrder,
  OrderTransaction,
  PayoutCreated,
  SupportSymbol,
  WebhookEvent,
} from '../src/index.ts';

/**
 * The client's types against the server's published schemas (src/http/openapi/resources.ts): the
 * same fields, and every value the server may send fits the client's type. Checked by the compiler
 * (`npm test` type-checks this file); the test body only keeps vitest from reporting an empty file.
 */
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
type Fits<Server, Client> = [Server] extends [Client] ? true : false;
type Both<S, C> = SameKeys<S, C> extends true ? Fits<S, C> : false;
const inStep = <T extends true>(_: T) => _;

describe('client types', () => {
  it('match what the server publishes', () => {
    const checks = [
      inStep<Both<z.output<typeof collectionCreated>, CollectionCreated>>(true),
      inStep<Both<z.output<typeof payoutCreated>, PayoutCreated>>(true),
      inStep<Both<z.output<typeof notifyOrder>, NotifyOrder>>(true),
      inStep<Both<z.output<typeof transaction>, OrderTransaction>>(true),
      inStep<Both<z.output<typeof payinOrder>, CheckoutOrder>>(true),
      inStep<Both<z.output<typeof supportSymbol>, SupportSymbol>>(true),
      inStep<Both<z.output<typeof merchantBalance>, MerchantBalance>>(true),
      inStep<SameKeys<z.output<typeof webhookEvent>, WebhookEvent>>(true),
      inStep<Fits<z.output<typeof webhookEvent>['notifyType'], WebhookEvent['notifyType']>>(true),
    ];
    expect(checks.every(Boolean)).toBe(true);
    expect(checkoutStateHasMore).toBe(true);
  });
});

/** The checkout page's state is PayinOrderVo plus progress: the client's CheckoutOrder is its base. */
const checkoutStateHasMore: Fits<z.output<typeof checkoutState>, CheckoutOrder> = true;
