import type { Config } from '../../config/schema.ts';
import { NOTIFY_TYPES } from '../../domain/events.ts';
import { type JsonSchema, toJsonSchema } from './json-schema.ts';
import { type Operation, publicOperations } from './operations.ts';
import { errorEnvelope, requestEnvelope, success, webhookEvent } from './resources.ts';

/** The signing rules, word for word as Kassa checks them (also the reference page's text). */
export const SIGNING = {
  envelope:
    'Every POST carries the envelope `{sign, timestamp, nonce, data}`. `sign` is the lowercase hex HMAC-SHA256 of the JSON text of `data` (UTF-8), keyed by the merchant token (the 64-character text printed by `kassa merchant create`, used as is). Kassa accepts the exact bytes of `data` as they stand in the body, and also `JSON.stringify` of the parsed `data`. `timestamp` is Unix seconds within ±300 s of the server clock; `nonce` is accepted once per merchant within that window. The optional `X-Merchant-Id` header names the merchant, so Kassa checks one signature instead of looking for the merchant; send it. After 30 failed authentications in 60 s from one address, that address is refused with 429 for the rest of the window.',
  orderSign:
    '`sign` (query) is the lowercase hex HMAC-SHA256 of the orderId, keyed by the merchant token. A collection’s `paymentUrl` carries the checkout link’s own sign, which opens `/checkout`, `/v1/order/pay` and `/v1/order/getOrderStatus` of that order only.',
  webhooks:
    'Kassa POSTs each event to the merchant’s callback URL. `sign` in the body is the hex HMAC-SHA256 of the JSON text of `data`, keyed by the webhook secret; the Standard Webhooks headers carry `webhook-id` (= eventId), `webhook-timestamp` (Unix seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. Any 2xx is a delivery; anything else is retried with backoff for up to 3 days, in order per order. Dedupe on `eventId`.',
} as const;

function refusalResponses(op: Operation, components: Record<string, JsonSchema>) {
  const out: Record<string, unknown> = {};
  for (const [status, messages] of Object.entries(op.refusals)) {
    const examples = Object.fromEntries(
      messages.map((msg, i) => [
        `e${i + 1}`,
        { summary: msg, value: { code: Number(status), msg, data: null } },
      ]),
    );
    out[status] = {
      description: messages.join(' / '),
      content: {
        [op.path === '/checkout' ? 'text/html' : 'application/json']: {
          schema: toJsonSchema(errorEnvelope, 'output', components),
          examples,
        },
      },
    };
  }
  return out;
}

function operationObject(op: Operation, components: Record<string, JsonSchema>) {
  const answer =
    'schema' in op.answer
      ? {
          description: 'Success.',
          content: {
            'application/json': {
              schema: toJsonSchema(
                op.answer.envelope ? success(op.answer.schema) : op.answer.schema,
                'output',
                components,
              ),
            },
          },
        }
      : { description: op.answer.description, content: { [op.answer.mediaType]: {} } };
  const security =
    op.access === 'envelope'
      ? [{ signedEnvelope: [] }]
      : op.access === 'orderSign'
        ? [{ orderSign: [] }]
        : op.access === 'metricsToken'
          ? [{ metricsToken: [] }]
          : [];
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: op.description,
    tags: [op.tag],
    security,
    ...(op.parameters
      ? {
          parameters: op.parameters
            .filter((p) => !(p.name === 'sign' && op.access === 'orderSign' && p.in === 'query'))
            .map((p) => ({ ...p, schema: { type: 'string' } })),
        }
      : {}),
    ...(op.data
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: toJsonSchema(requestEnvelope(op.data), 'input', components),
                ...(op.example
                  ? { example: { sign: '…', timestamp: 1764072000, nonce: '…', data: op.example } }
                  : {}),
              },
            },
          },
        }
      : {}),
    responses: { 200: answer, ...refusalResponses(op, components) },
  };
}

/**
 * The OpenAPI 3.1 description of the public listener, built from the zod schemas that validate the
 * requests (services/request-schemas.ts) and describe the answers (resources.ts), the error table
 * and the operations list (operations.ts). Pure: the same config gives the same document.
 */
export function openApiDocument(config: Pick<Config, 'baseUrl'> & { ops: { metricsToken: string | null } }) {
  const components: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of publicOperations({ metrics: config.ops.metricsToken !== null })) {
    paths[op.path] = { ...(paths[op.path] ?? {}), [op.method]: operationObject(op, components) };
  }
  const webhook = (type: string) => ({
    post: {
      operationId: `webhook${type}`,
      summary: `${type} (to the merchant’s callback URL)`,
      description: SIGNING.webhooks,
      parameters: ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => ({
        name,
        in: 'header',
        required: true,
        schema: { type: 'string' },
      })),
      requestBody: {
        required: true,
        content: { 'application/json': { schema: toJsonSchema(webhookEvent, 'output', components) } },
      },
      responses: { 200: { description: 'Any 2xx: delivered.' } },
    },
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Kassa merchant API',
      version: '1',
      description:
        'Self-hosted, non-custodial stablecoin payment gateway: collections with a fresh deposit address and a hosted checkout page, payouts from the operator’s hot wallet, signed webhooks. Every answer is the R<T> envelope `{code, msg, data}`; `code` equals the HTTP status. Amounts are decimal strings.',
    },
    servers: [{ url: config.baseUrl }],
    tags: ['Orders', 'Merchant', 'Symbols', 'Checkout', 'Operations'].map((name) => ({ name })),
    paths,
    webhooks: Object.fromEntries(NOTIFY_TYPES.map((t) => [t, webhook(t)])),
    components: {
      schemas: components,
      securitySchemes: {
        signedEnvelope: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Merchant-Id',
          description: SIGNING.envelope,
        },
        orderSign: { type: 'apiKey', in: 'query', name: 'sign', description: SIGNING.orderSign },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'KASSA_METRICS_TOKEN.' },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
