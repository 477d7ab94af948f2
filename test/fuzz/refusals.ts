import { MESSAGES } from '../../src/domain/errors.ts';
import { ERROR_TABLE } from '../../src/http/errors.ts';

/** What a refusal may say, in Kassa's envelope and in XPay's: the tables the fuzz properties check. */

const FIELD_TYPE_MESSAGES = ['amount', 'symbol', 'chain', 'orderId', 'uid', 'receiveAddress'].map(
  (f) => `The ${f} must be a string.`,
);
export const VALIDATION = new Set<string>([
  ...Object.values(MESSAGES),
  ...FIELD_TYPE_MESSAGES,
  ERROR_TABLE.validation.msg,
]);
/** What a payout refused for money may say (issue 11: the ledger, limits, allowlist, the hot wallet). */
export const PAYOUT_REFUSALS = [
  /^Insufficient funds\. balance: \d+(\.\d+)? Total required: \d+(\.\d+)? \(\d+(\.\d+)? amount \+ \d+(\.\d+)? fee\)\.$/,
  ...[
    ERROR_TABLE.insufficient_balance.msg,
    MESSAGES.payoutAboveLimit,
    MESSAGES.payoutAboveDailyLimit,
    MESSAGES.receiveAddressNotAllowed,
  ].map((m) => new RegExp(`^${m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)),
];
/** Validation messages about the envelope itself: sent before the signature is checked. */
export const ENVELOPE_MESSAGES = new Set<string>([
  MESSAGES.bodyNotJson,
  MESSAGES.bodyTooDeep,
  MESSAGES.signBlank,
  MESSAGES.timestampBlank,
  MESSAGES.nonceBlank,
  MESSAGES.dataBlank,
]);
/** The messages of the error table, by the HTTP status they are sent with. */
export const byStatus = new Map<number, Set<string>>();
for (const { status, msg } of Object.values(ERROR_TABLE)) {
  if (!byStatus.has(status)) byStatus.set(status, new Set());
  byStatus.get(status)?.add(msg);
}

/** What an XPay-style refusal may say. */
export const XPAY_TEXTS = new Set<string>([
  'Permission denied',
  'Invalid permissions',
  'timestamp is null',
  'nonce is null',
  'sign is null',
  'JSON parsing failed',
  'The timestamp must be a whole number of seconds.',
  'The nonce must be at most 128 characters.',
  'Signature error',
  'Order ID already exists.',
  'Unsupported symbol or chain',
  'Unsupported asset type',
  'Address acquisition is not supported.',
  'Visit too frequently, please try again later',
  'Not found.',
]);
export const XPAY_PATTERNS = [
  /^Signature error [0-9a-fA-F]{64}$/,
  /^The difference in timestamps -?\d+$/,
  /^appId: , timestamp: \d+, nonce: [\s\S]+$/,
  /^Order not found [\s\S]*$/,
];
/** XPay refusals about the request itself, before its data is looked at: they never spend a nonce. */
export const XPAY_ENVELOPE = (msg: string) =>
  (XPAY_TEXTS.has(msg) &&
    ![
      'Order ID already exists.',
      'Unsupported symbol or chain',
      'Unsupported asset type',
      'Address acquisition is not supported.',
    ].includes(msg)) ||
  XPAY_PATTERNS.slice(0, 3).some((r) => r.test(msg)) ||
  [MESSAGES.bodyTooDeep, ERROR_TABLE.body_too_large.msg].includes(msg as never);
