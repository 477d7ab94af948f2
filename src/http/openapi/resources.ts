import { z } from 'zod';
import type { PayinOrderVo } from '../../checkout/state.ts';
import { CHAINS } from '../../domain/chains.ts';
import { NOTIFY_TYPES } from '../../domain/events.ts';
import type { NotifyOrder } from '../../domain/notify-order.ts';
import type { CollectionCreated } from '../../services/create-collection.ts';
import type { PayoutCreated } from '../../services/create-payout.ts';
import type { MerchantBalanceVo } from '../../services/get-balance.ts';

/**
 * The resources Kassa answers with, as zod schemas: what the OpenAPI document publishes, and what
 * the tests hold every real answer to (openapi.test.ts parses them strictly). The key checks at the
 * end make the compiler refuse a field added to or dropped from a service's answer without this
 * file following.
 */

const chain = z.enum(CHAINS).meta({ id: 'Chain', description: 'A chain Kassa serves.' });
const orderStatus = z.enum(['INIT', 'PENDING', 'PENDING_CONFIRMATION', 'SUCCESS', 'EXPIRED', 'FAILED']).meta({
  id: 'OrderStatus',
  description:
    'INIT (waiting for payment, or queued payout) → PENDING (a transfer seen, or the payout broadcast) → PENDING_CONFIRMATION (enough received or mined, waiting for finality) → SUCCESS. EXPIRED and FAILED end an order; SUCCESS, EXPIRED and FAILED are final.',
});
const decimal = z
  .string()
  .regex(/^\d+(\.\d+)?$/)
  .meta({
    description: 'A decimal amount in the token’s units, as a string (never a number).',
    examples: ['10.50'],
  });
const unixSeconds = z.number().int().meta({ description: 'Unix time in seconds.' });

export const collectionCreated = z
  .strictObject({
    address: z.string().meta({ description: 'The deposit address made for this order alone.' }),
    amount: decimal.meta({ description: 'The requested amount, as sent.' }),
    symbol: z.string(),
    chain,
    orderId: z.string(),
    uid: z.string().nullable(),
    expiredTime: unixSeconds.meta({
      description: 'After this, payments to the address are not credited to the order.',
    }),
    paymentUrl: z
      .url()
      .meta({ description: 'The hosted checkout page: `{base_url}/checkout?orderId=…&sign=…`.' }),
  })
  .meta({ id: 'CollectionCreated', description: 'The PaymentAddress of a collection.' });

export const payoutCreated = z
  .strictObject({
    address: z.string().meta({ description: 'The hot wallet the payout is sent from.' }),
    amount: decimal,
    symbol: z.string(),
    chain,
    orderId: z.string(),
    expiredTime: unixSeconds.meta({ description: 'The payout is not sent after this.' }),
  })
  .meta({ id: 'PayoutCreated', description: 'The PaymentAddress of a payout.' });

export const transaction = z
  .strictObject({
    chain,
    symbol: z.string(),
    txid: z.string(),
    from: z.string(),
    to: z.string(),
    amount: decimal,
    blockNum: z
      .number()
      .int()
      .meta({ description: 'The block that holds it; 0 while a payout is not mined.' }),
    confirmedNum: z.number().int().meta({ description: 'Confirmations received.' }),
    status: z.enum(['PENDING', 'SUCCESS', 'FAILED']),
    timestamp: unixSeconds,
  })
  .meta({ id: 'Transaction', description: 'The transaction that last moved the order.' });

export const notifyOrder = z
  .strictObject({
    orderId: z.string(),
    uid: z.string().nullable(),
    orderType: z.enum(['COLLECTION', 'PAYOUT']),
    status: orderStatus,
    reason: z.string().nullable().meta({ description: 'Why it failed, expired or waits; null otherwise.' }),
    amount: decimal,
    actualAmount: decimal.nullable().meta({ description: 'Received (or paid) once confirmed; null before.' }),
    fee: decimal.meta({ description: 'The operator’s handling fee; `0.00` when none.' }),
    transaction: transaction.nullable(),
  })
  .meta({ id: 'NotifyOrder', description: 'An order in full; also the `data` of every webhook.' });

export const payinOrder = z
  .strictObject({
    orderId: z.string(),
    chain,
    symbol: z.string(),
    address: z.string(),
    amount: decimal,
    actualAmount: decimal.nullable(),
    expiredTime: unixSeconds,
    status: orderStatus,
    reason: z.string().nullable(),
  })
  .meta({ id: 'PayinOrderVo', description: 'What the checkout page shows of a collection.' });

export const checkoutState = payinOrder
  .extend({
    received: decimal.meta({ description: 'Seen so far, final or not.' }),
    remaining: decimal.meta({ description: 'Still missing to cover the amount; `0.00` once covered.' }),
    confirmations: z.number().int(),
    confirmationsRequired: z.number().int().nullable(),
    txid: z.string().nullable(),
    explorerUrl: z.string().nullable(),
    serverTime: z.number().int().meta({ description: 'Server clock, Unix milliseconds.' }),
    final: z.boolean(),
  })
  .meta({
    id: 'CheckoutState',
    description: 'PayinOrderVo plus the payment’s progress, for the checkout page.',
  });

export const orderStatusOnly = z
  .strictObject({ status: orderStatus })
  .meta({ id: 'PaymentOrderStatus', description: 'Only the state of an order.' });

export const supportSymbol = z
  .strictObject({
    symbol: z.string(),
    chain,
    contractAddress: z
      .string()
      .nullable()
      .meta({ description: 'Contract or coin type; null for the native coin.' }),
    decimals: z.number().int(),
  })
  .meta({ id: 'SupportSymbol' });

export const merchantBalance = z
  .strictObject({
    chain,
    symbol: z.string(),
    balance: decimal.meta({ description: 'Available: what payouts may use now.' }),
    frozenBalance: decimal.meta({ description: 'Held by payouts not finished yet.' }),
    totalBalance: decimal,
    updateTime: unixSeconds
      .nullable()
      .meta({ description: 'The last movement; null for a token never moved.' }),
  })
  .meta({
    id: 'MerchantBalance',
    description: 'A merchant’s balance of one token on one chain (its ledger).',
  });

/** The R<T> envelope of a success. */
export function success<T extends z.ZodType>(data: T) {
  return z.strictObject({ code: z.literal(200), msg: z.literal('success'), data });
}

export const errorEnvelope = z
  .strictObject({
    code: z.number().int().meta({ description: 'The HTTP status.' }),
    msg: z.string().meta({ description: 'What went wrong, word for word from the error table.' }),
    data: z.null(),
  })
  .meta({ id: 'Error', description: 'The R<T> envelope of an error.' });

/** The signed envelope of every POST. */
export function requestEnvelope<T extends z.ZodType>(data: T) {
  return z.object({
    sign: z.string().meta({
      description: 'Lowercase hex HMAC-SHA256 of the JSON text of `data`, keyed by the merchant token.',
    }),
    timestamp: unixSeconds.meta({ description: 'Unix seconds; within ±300 s of the server’s clock.' }),
    nonce: z.string().meta({ description: 'Unique per request (a UUID); a nonce is accepted once.' }),
    data,
  });
}

export const webhookEvent = z
  .strictObject({
    eventId: z
      .string()
      .meta({ description: 'Stable across retries and resends: dedupe on it. Equals `webhook-id`.' }),
    notifyType: z.enum(NOTIFY_TYPES),
    timestamp: unixSeconds.meta({ description: 'When this attempt was sent. Equals `webhook-timestamp`.' }),
    nonce: z.string().meta({ description: 'New on every attempt; not an id.' }),
    data: notifyOrder,
    sign: z.string().meta({
      description: 'Lowercase hex HMAC-SHA256 of the JSON text of `data`, keyed by the webhook secret.',
    }),
  })
  .meta({ id: 'WebhookEvent', description: 'What Kassa POSTs to the merchant’s callback URL.' });

export const health = z.strictObject({ status: z.literal('ok') }).meta({ id: 'Health' });
export const readiness = z.strictObject({ status: z.enum(['ready', 'not_ready']) }).meta({ id: 'Readiness' });

// ---- the compiler keeps these schemas and the services' answers in step -------------------------

type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
const inStep = <T extends true>(_: T) => _;
inStep<SameKeys<z.output<typeof collectionCreated>, CollectionCreated>>(true);
inStep<SameKeys<z.output<typeof payoutCreated>, PayoutCreated>>(true);
inStep<SameKeys<z.output<typeof notifyOrder>, NotifyOrder>>(true);
inStep<SameKeys<z.output<typeof transaction>, NonNullable<NotifyOrder['transaction']>>>(true);
inStep<SameKeys<z.output<typeof payinOrder>, PayinOrderVo>>(true);
inStep<SameKeys<z.output<typeof merchantBalance>, MerchantBalanceVo>>(true);
