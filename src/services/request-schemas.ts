import { z } from 'zod';
import { CHAINS } from '../domain/chains.ts';
import { MESSAGES, validationError } from '../domain/errors.ts';
import type { MerchantKind } from '../domain/order.ts';

/**
 * The `data` of every signed POST as zod schemas: the one description of what a request may carry.
 * The services validate requests with them (`parseRequest`), and the OpenAPI document
 * (`src/http/openapi/`) is generated from them, so the two cannot drift. Checks that need the
 * database (the symbol on the chain, the amount's precision for the token, the address for the
 * chain) stay in the services.
 *
 * A text field is a string, or a finite number read as its decimal text (many clients send
 * numbers); `null` or absent is blank. Every refusal carries the interface's exact message; when a
 * request has several problems, the first in the interface's error table is reported
 * (`RANK` below): amount, symbol, chain, orderId/uid, receiveAddress, then lengths and the amount's
 * form.
 */

const typeMessage = (field: string) => `The ${field} must be a string.`;

/** The order in which problems are reported: lower first; a field's type error ranks as its blank. */
const RANK: Record<string, number> = {
  [MESSAGES.amountBlank]: 1,
  [typeMessage('amount')]: 1,
  [MESSAGES.symbolBlank]: 2,
  [typeMessage('symbol')]: 2,
  [MESSAGES.chainBlank]: 3,
  [typeMessage('chain')]: 3,
  [MESSAGES.chainUnsupported]: 3,
  [MESSAGES.orderIdBlank]: 4,
  [typeMessage('orderId')]: 4,
  [MESSAGES.uidBlank]: 4,
  [typeMessage('uid')]: 4,
  [MESSAGES.uidZero]: 5,
  [MESSAGES.receiveAddressBlank]: 6,
  [typeMessage('receiveAddress')]: 6,
  [MESSAGES.orderIdTooLong]: 7,
  [MESSAGES.uidTooLong]: 7,
  [MESSAGES.amountInvalid]: 8,
};

/** A string or finite number (as its decimal text), trimmed; `blank` is the message for absent or null. */
function textValue(field: string, blank?: string) {
  return z
    .union([z.string(), z.number()], {
      error: (issue) =>
        (issue.input === undefined || issue.input === null) && blank ? blank : typeMessage(field),
    })
    .transform((v) => (typeof v === 'number' ? String(v) : v.trim()));
}

/** An optional text field (absent, null or text). */
function optionalText(field: string, description: string) {
  return textValue(field).nullish().meta({ description });
}

/** A required text field: absent, null or empty is refused with `blank`. */
function requiredText(field: string, description: string, blank: string) {
  return textValue(field, blank)
    .refine((v) => v !== '', { error: blank })
    .meta({ description });
}

const amount = z
  .union([z.string(), z.number()], {
    error: (issue) =>
      issue.input === undefined || issue.input === null ? MESSAGES.amountBlank : typeMessage('amount'),
  })
  .transform((v) => (typeof v === 'number' ? String(v) : v))
  // the amount exactly as sent: money is never trimmed into shape (" 5" is refused, not read as 5)
  .refine((v) => v.trim() !== '', { error: MESSAGES.amountBlank })
  .refine((v) => v.trim() === '' || /^\d+(\.\d+)?$/.test(v), { error: MESSAGES.amountInvalid })
  .meta({
    description:
      'A decimal string greater than zero, with at most the token’s decimals (never rounded). A JSON number is read as its decimal text.',
    examples: ['10.00'],
  });

const symbol = requiredText(
  'symbol',
  'A symbol of `GET /v1/symbol/supportSymbols` on that chain (any case).',
  MESSAGES.symbolBlank,
).meta({ examples: ['USDT'] });

const chain = z.enum(CHAINS, { error: () => MESSAGES.chainBlank }).meta({ description: 'The chain.' });

const orderId = optionalText(
  'orderId',
  'The merchant’s unique order id, at most 64 characters; required for V3 merchants. V2 merchants without one get a generated id.',
).refine((v) => v == null || v.length <= 64, { error: MESSAGES.orderIdTooLong });

const uid = optionalText(
  'uid',
  'The merchant’s user id, at most 64 characters, not `0`; required for V2 merchants.',
)
  .refine((v) => v !== '0', { error: MESSAGES.uidZero })
  .refine((v) => v == null || v.length <= 64, { error: MESSAGES.uidTooLong });

/** `data` of POST /v1/order/createCollection. */
export const createCollectionData = z
  .object({ amount, symbol, chain, orderId, uid })
  .meta({ id: 'CreateCollectionData', description: 'What a collection asks for.' });

/** `data` of POST /v1/order/createPayout. */
export const createPayoutData = createCollectionData
  .extend({
    receiveAddress: requiredText(
      'receiveAddress',
      'Where the payout goes, validated for the chain: TRON base58check `T…`; EVM `0x` + 40 hex (EIP-55 checksum when mixed-case); SUI `0x` + 64 hex.',
      MESSAGES.receiveAddressBlank,
    ),
  })
  .meta({ id: 'CreatePayoutData', description: 'What a payout asks for.' });

/** `data` of POST /v1/merchant/getBalance. */
export const getBalanceData = z
  .object({
    chain: optionalText('chain', 'Only this chain.').refine(
      (v) => v == null || v === '' || CHAINS.includes(v as never),
      {
        error: MESSAGES.chainUnsupported,
      },
    ),
    symbol: optionalText('symbol', 'Only this symbol (any case).'),
  })
  .meta({ id: 'GetBalanceData', description: 'Filters of a balance query; both optional.' });

/** The kind's required id: orderId for V3 merchants, uid for V2. */
function forKind<T extends typeof createCollectionData | typeof createPayoutData>(
  schema: T,
  kind: MerchantKind,
) {
  return kind === 'V3'
    ? schema.extend({
        orderId: requiredText('orderId', 'The merchant’s unique order id.', MESSAGES.orderIdBlank).refine(
          (v) => v.length <= 64,
          {
            error: MESSAGES.orderIdTooLong,
          },
        ),
      })
    : schema.extend({
        uid: requiredText('uid', 'The merchant’s user id.', MESSAGES.uidBlank)
          .refine((v) => v !== '0', { error: MESSAGES.uidZero })
          .refine((v) => v.length <= 64, { error: MESSAGES.uidTooLong }),
      });
}

const byKind = {
  collection: { V2: forKind(createCollectionData, 'V2'), V3: forKind(createCollectionData, 'V3') },
  payout: { V2: forKind(createPayoutData, 'V2'), V3: forKind(createPayoutData, 'V3') },
};

/** The schema a merchant of `kind` is held to (its kind's id is required). */
export function orderRequestSchema(type: 'collection' | 'payout', kind: MerchantKind) {
  return byKind[type][kind];
}

/**
 * Parses `data` with `schema`; a refusal throws the 400 validation error of the problem that comes
 * first in the interface's error table.
 */
export function parseRequest<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  // `data` that is not an object has none of the fields: its first blank field is reported
  const object = data !== null && typeof data === 'object' && !Array.isArray(data) ? data : {};
  const parsed = schema.safeParse(object);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue, i) => ({ issue, rank: RANK[issue.message] ?? 100 + i }));
  issues.sort((a, b) => a.rank - b.rank);
  throw validationError(issues[0]?.issue.message ?? 'Bad request.');
}
