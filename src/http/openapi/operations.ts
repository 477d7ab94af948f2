import type { z } from 'zod';
import { MESSAGES } from '../../domain/errors.ts';
import { createCollectionData, createPayoutData, getBalanceData } from '../../services/request-schemas.ts';
import { ERROR_TABLE } from '../errors.ts';
import {
  checkoutState,
  collectionCreated,
  health,
  merchantBalance,
  notifyOrder,
  orderStatusOnly,
  payinOrder,
  payoutCreated,
  readiness,
  supportSymbol,
} from './resources.ts';

/** Who may call an operation: a signed envelope, a sign over the orderId, or anyone. */
export type Access = 'envelope' | 'orderSign' | 'public' | 'metricsToken';

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description: string;
}

/** One endpoint of the public listener, as the OpenAPI document and the reference page show it. */
export interface Operation {
  method: 'get' | 'post';
  path: string;
  operationId: string;
  tag: 'Orders' | 'Merchant' | 'Symbols' | 'Checkout' | 'Operations';
  summary: string;
  description: string;
  access: Access;
  /** The `data` of a signed POST. */
  data?: z.ZodType;
  /** An example of `data`, for the reference page. */
  example?: Record<string, unknown>;
  parameters?: Parameter[];
  /** The success answer: a schema inside R<T> (envelope), a bare JSON schema, or another media type. */
  answer: { schema: z.ZodType; envelope: boolean } | { mediaType: string; description: string };
  /** Refusals: status → the exact messages. */
  refusals: Record<number, string[]>;
}

const typeMessages = (...fields: string[]) => fields.map((f) => `The ${f} must be a string.`);
const orderIdParam: Parameter = {
  name: 'orderId',
  in: 'query',
  required: true,
  description: 'The order’s orderId.',
};
const signParam: Parameter = {
  name: 'sign',
  in: 'query',
  required: true,
  description:
    'Hex HMAC-SHA256 of the orderId keyed by the merchant token, or the `sign` of the order’s `paymentUrl`.',
};

/** What every signed POST may be refused for before its data is read. */
const ENVELOPE_REFUSALS: Record<number, string[]> = {
  400: [
    MESSAGES.bodyNotJson,
    MESSAGES.bodyTooDeep,
    MESSAGES.signBlank,
    MESSAGES.timestampBlank,
    MESSAGES.nonceBlank,
    MESSAGES.dataBlank,
  ],
  401: [ERROR_TABLE.invalid_signature.msg, ERROR_TABLE.timestamp_window.msg, ERROR_TABLE.nonce_reused.msg],
  413: [ERROR_TABLE.body_too_large.msg],
  429: [ERROR_TABLE.rate_limited.msg],
  500: [ERROR_TABLE.internal.msg],
  503: [ERROR_TABLE.busy.msg],
};

const ORDER_DATA_REFUSALS = [
  MESSAGES.amountBlank,
  MESSAGES.symbolBlank,
  MESSAGES.chainBlank,
  MESSAGES.orderIdBlank,
  MESSAGES.uidBlank,
  MESSAGES.uidZero,
  MESSAGES.orderIdTooLong,
  MESSAGES.uidTooLong,
  MESSAGES.amountInvalid,
  MESSAGES.symbolUnsupported,
  MESSAGES.amountPrecision,
];

function merge(...tables: Record<number, string[]>[]): Record<number, string[]> {
  const out: Record<number, string[]> = {};
  for (const t of tables)
    for (const [s, m] of Object.entries(t)) out[Number(s)] = [...(out[Number(s)] ?? []), ...m];
  return out;
}

const queryRefusals = (perOrder: boolean): Record<number, string[]> => ({
  400: [MESSAGES.orderIdBlank, MESSAGES.signBlank],
  401: [ERROR_TABLE.invalid_signature.msg],
  404: [ERROR_TABLE.order_not_found.msg],
  429: [ERROR_TABLE.rate_limited.msg + (perOrder ? ' (2 a second per order by default)' : '')],
  500: [ERROR_TABLE.internal.msg],
});

/** Every endpoint of the public listener. `metrics` only when a metrics token is configured. */
export function publicOperations(options: { metrics: boolean }): Operation[] {
  const ops: Operation[] = [
    {
      method: 'post',
      path: '/v1/order/createCollection',
      operationId: 'createCollection',
      tag: 'Orders',
      summary: 'Create a collection',
      description:
        'Allocates a fresh deposit address for the order and returns it with the hosted checkout page. Idempotent on (merchant, orderId): the same parameters again return the same order; different ones are refused with 409.',
      access: 'envelope',
      data: createCollectionData,
      example: { amount: '10.00', symbol: 'USDT', chain: 'TRON', orderId: 'A-1001' },
      answer: { schema: collectionCreated, envelope: true },
      refusals: merge(ENVELOPE_REFUSALS, {
        400: [...ORDER_DATA_REFUSALS, ...typeMessages('amount', 'symbol', 'orderId', 'uid')],
        409: [ERROR_TABLE.order_conflict.msg],
      }),
    },
    {
      method: 'post',
      path: '/v1/order/createPayout',
      operationId: 'createPayout',
      tag: 'Orders',
      summary: 'Create a payout',
      description:
        'Queues a payout from the chain’s hot wallet; the worker signs it once, stores it, then broadcasts it. The merchant’s available balance must cover `amount + fee` (it is frozen at once), and the hot wallet must hold the amount and the fees on top of the payouts already queued; both are decided in the transaction that records the payout. Limits, an allowlist and approvals may apply (see the README’s Money section). Idempotent on (merchant, orderId).',
      access: 'envelope',
      data: createPayoutData,
      example: {
        amount: '5.00',
        symbol: 'USDT',
        chain: 'TRON',
        orderId: 'W-77',
        receiveAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      },
      answer: { schema: payoutCreated, envelope: true },
      refusals: merge(ENVELOPE_REFUSALS, {
        400: [
          ...ORDER_DATA_REFUSALS,
          MESSAGES.receiveAddressBlank,
          MESSAGES.receiveAddressError,
          ...typeMessages('amount', 'symbol', 'orderId', 'uid', 'receiveAddress'),
        ],
        409: [ERROR_TABLE.order_conflict.msg],
        422: [
          'Insufficient funds. balance: <b> Total required: <t> (<a> amount + <f> fee).',
          ERROR_TABLE.insufficient_balance.msg,
          MESSAGES.payoutAboveLimit,
          MESSAGES.payoutAboveDailyLimit,
          MESSAGES.receiveAddressNotAllowed,
        ],
        503: [ERROR_TABLE.chain_unavailable.msg],
      }),
    },
    {
      method: 'post',
      path: '/v1/merchant/getBalance',
      operationId: 'getBalance',
      tag: 'Merchant',
      summary: 'The merchant’s balances',
      description:
        'Available (`balance`), frozen and total per chain and token, from the merchant’s ledger: paid collections credit `actualAmount − fee`, payouts freeze `amount + fee` and debit it when paid.',
      access: 'envelope',
      data: getBalanceData,
      example: { chain: 'TRON' },
      answer: { schema: merchantBalance.array(), envelope: true },
      refusals: merge(ENVELOPE_REFUSALS, {
        400: [MESSAGES.chainUnsupported, ...typeMessages('chain', 'symbol')],
      }),
    },
    {
      method: 'get',
      path: '/v1/order/status/{orderId}',
      operationId: 'getOrder',
      tag: 'Orders',
      summary: 'An order in full',
      description:
        'The NotifyOrder of a collection or payout, as the webhooks carry it. Only the merchant’s own sign opens it (not the checkout link’s).',
      access: 'orderSign',
      parameters: [
        {
          name: 'orderId',
          in: 'path',
          required: true,
          description: 'The order’s orderId (percent-encoded).',
        },
        { ...signParam, description: 'Hex HMAC-SHA256 of the orderId keyed by the merchant token.' },
      ],
      answer: { schema: notifyOrder, envelope: true },
      refusals: queryRefusals(false),
    },
    {
      method: 'get',
      path: '/v1/order/pay',
      operationId: 'getCheckout',
      tag: 'Orders',
      summary: 'What the checkout page shows',
      description: 'The PayinOrderVo of a collection. Takes the merchant’s sign or the checkout link’s.',
      access: 'orderSign',
      parameters: [orderIdParam, signParam],
      answer: { schema: payinOrder, envelope: true },
      refusals: queryRefusals(true),
    },
    {
      method: 'get',
      path: '/v1/order/getOrderStatus',
      operationId: 'getOrderStatus',
      tag: 'Orders',
      summary: 'Only the state of an order',
      description:
        'For light polling; webhooks are the better way. Takes the merchant’s sign or the checkout link’s.',
      access: 'orderSign',
      parameters: [orderIdParam, signParam],
      answer: { schema: orderStatusOnly, envelope: true },
      refusals: queryRefusals(true),
    },
    {
      method: 'get',
      path: '/v1/symbol/supportSymbols',
      operationId: 'supportSymbols',
      tag: 'Symbols',
      summary: 'The tokens Kassa accepts',
      description: 'Public, limited per client address.',
      access: 'public',
      parameters: [
        { name: 'chain', in: 'query', required: false, description: 'Only this chain.' },
        { name: 'symbol', in: 'query', required: false, description: 'Only this symbol (any case).' },
      ],
      answer: { schema: supportSymbol.array(), envelope: true },
      refusals: { 429: [ERROR_TABLE.rate_limited.msg] },
    },
    {
      method: 'get',
      path: '/checkout',
      operationId: 'checkoutPage',
      tag: 'Checkout',
      summary: 'The hosted checkout page',
      description:
        'The `paymentUrl` of a collection: an HTML page (English or Chinese, `lang=en|zh`) with the address, a QR code and the live state. Refusals are HTML pages too.',
      access: 'orderSign',
      parameters: [
        orderIdParam,
        signParam,
        { name: 'lang', in: 'query', required: false, description: '`en` or `zh`.' },
      ],
      answer: { mediaType: 'text/html', description: 'The checkout page.' },
      refusals: {},
    },
    {
      method: 'get',
      path: '/checkout/state',
      operationId: 'checkoutState',
      tag: 'Checkout',
      summary: 'The checkout page’s live state',
      description: 'What the page polls: PayinOrderVo plus the progress of the payment.',
      access: 'orderSign',
      parameters: [orderIdParam, signParam],
      answer: { schema: checkoutState, envelope: true },
      refusals: queryRefusals(true),
    },
    {
      method: 'get',
      path: '/healthz',
      operationId: 'health',
      tag: 'Operations',
      summary: 'Liveness',
      description: 'Answers while the process serves HTTP; touches nothing else.',
      access: 'public',
      answer: { schema: health, envelope: false },
      refusals: {},
    },
    {
      method: 'get',
      path: '/readyz',
      operationId: 'readiness',
      tag: 'Operations',
      summary: 'Readiness',
      description:
        '200 when the database takes a write and every enabled chain’s scanner is within its lag budget, 503 `{"status":"not_ready"}` otherwise. The detail is on the admin listener.',
      access: 'public',
      answer: { schema: readiness, envelope: false },
      refusals: {},
    },
    {
      method: 'get',
      path: '/openapi.json',
      operationId: 'openApi',
      tag: 'Operations',
      summary: 'This document',
      description: 'The OpenAPI 3.1 description of the public listener.',
      access: 'public',
      answer: { mediaType: 'application/json', description: 'The OpenAPI document.' },
      refusals: {},
    },
    {
      method: 'get',
      path: '/docs',
      operationId: 'reference',
      tag: 'Operations',
      summary: 'The API reference page',
      description: 'This document as an HTML page, with signing explained and an example per endpoint.',
      access: 'public',
      answer: { mediaType: 'text/html', description: 'The reference page.' },
      refusals: {},
    },
  ];
  if (options.metrics) {
    ops.push({
      method: 'get',
      path: '/metrics',
      operationId: 'metrics',
      tag: 'Operations',
      summary: 'Prometheus metrics',
      description:
        'Present on the public listener only because KASSA_METRICS_TOKEN is set; the admin listener serves it without a token.',
      access: 'metricsToken',
      answer: { mediaType: 'text/plain', description: 'Prometheus text format 0.0.4.' },
      refusals: { 401: ['Unauthorized'] },
    });
  }
  return ops;
}
