import { AppError, MESSAGES, validationError } from '../domain/errors.ts';
import { hmacHexEquals } from '../lib/hmac.ts';
import type { Deps } from './deps.ts';
import type { Merchant, MerchantDirectory } from './merchant-directory.ts';

/** What any valid `sign` looks like; anything else fails without an HMAC computed. */
const HEX_SIGN = /^[0-9a-fA-F]{64}$/;

/** The signed envelope of every POST, after its shape was checked. */
export interface Envelope {
  sign: string;
  timestamp: number;
  nonce: string;
  data: Record<string, unknown>;
}

/**
 * Checks the envelope's shape: sign, timestamp (integer seconds), nonce and data (an object) must be
 * present. Throws a 400 with the first missing field's message.
 */
export function parseEnvelope(body: unknown): Envelope {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw validationError(MESSAGES.bodyNotJson);
  const b = body as Record<string, unknown>;
  if (typeof b.sign !== 'string' || b.sign === '') throw validationError(MESSAGES.signBlank);
  const ts = typeof b.timestamp === 'string' && /^\d+$/.test(b.timestamp) ? Number(b.timestamp) : b.timestamp;
  if (typeof ts !== 'number' || !Number.isInteger(ts)) throw validationError(MESSAGES.timestampBlank);
  if (typeof b.nonce !== 'string' || b.nonce === '' || b.nonce.length > 128)
    throw validationError(MESSAGES.nonceBlank);
  if (typeof b.data !== 'object' || b.data === null || Array.isArray(b.data))
    throw validationError(MESSAGES.dataBlank);
  return { sign: b.sign, timestamp: ts, nonce: b.nonce, data: b.data as Record<string, unknown> };
}

/**
 * Finds the merchant for whom `verify` holds: only the one named by `merchantId` (one HMAC), or
 * else every active merchant in turn (one HMAC each, constant time). The directory is never re-read
 * here, so a failed signature costs HMACs only. Throws 401 when nobody matches.
 */
export async function findSigner<P>(
  directory: MerchantDirectory,
  merchantId: string | undefined,
  verify: (merchant: Merchant) => P | null,
): Promise<{ merchant: Merchant; purpose: P }> {
  const candidates = merchantId
    ? [await directory.byId(merchantId)].filter((m) => m !== null)
    : await directory.active();
  for (const merchant of candidates) {
    const purpose = verify(merchant);
    if (purpose !== null) return { merchant, purpose };
  }
  throw new AppError('invalid_signature');
}

/**
 * Authenticates a POST: timestamp within the window, a merchant token signing the `data` member
 * (its exact bytes in the body, or JSON.stringify of it). Does not consume the nonce: call
 * `consumeRequestNonce` once the request is admitted.
 */
export async function authenticatePost(
  deps: Pick<Deps, 'config' | 'clock'>,
  directory: MerchantDirectory,
  input: { envelope: Envelope; rawData: string | null; merchantId: string | undefined },
): Promise<Merchant> {
  const { envelope } = input;
  const windowMs = deps.config.auth.timestampWindowSeconds * 1000;
  if (Math.abs(deps.clock.now() - envelope.timestamp * 1000) > windowMs)
    throw new AppError('timestamp_window');
  if (!HEX_SIGN.test(envelope.sign)) throw new AppError('invalid_signature');
  const messages = [JSON.stringify(envelope.data)];
  if (input.rawData !== null && input.rawData !== messages[0]) messages.unshift(input.rawData);
  const { merchant } = await findSigner(directory, input.merchantId, (m) =>
    messages.some((message) => hmacHexEquals(m.token, message, envelope.sign)) ? true : null,
  );
  return merchant;
}

/** Records the envelope's nonce for the merchant; throws 401 when it was used within the window. */
export async function consumeRequestNonce(
  deps: Pick<Deps, 'config' | 'db'>,
  merchant: Merchant,
  envelope: Envelope,
): Promise<void> {
  const expiresAt = envelope.timestamp * 1000 + deps.config.auth.timestampWindowSeconds * 1000 + 1000;
  if (!(await deps.db.consumeNonce(merchant.id, envelope.nonce, expiresAt)))
    throw new AppError('nonce_reused');
}

/**
 * Who may hold an order query's `sign`: `merchant` = HMAC(token, orderId), what the merchant's own
 * server computes; `checkout` = HMAC(checkout link key, orderId), the `sign` of the order's
 * `paymentUrl` that its customer holds (checkout-link.ts).
 */
export type SignPurpose = 'merchant' | 'checkout';

/**
 * Authenticates a GET whose `sign` is the HMAC of the orderId under one of the keys `accept` names
 * (the merchant's token, or its checkout link key); says which one matched.
 */
export async function authenticateOrderQuery(
  directory: MerchantDirectory,
  input: {
    orderId: string | undefined;
    sign: string | undefined;
    merchantId: string | undefined;
    accept: readonly SignPurpose[];
  },
): Promise<{ merchant: Merchant; orderId: string; purpose: SignPurpose }> {
  const { orderId, sign } = input;
  if (!orderId) throw validationError(MESSAGES.orderIdBlank);
  if (!sign) throw validationError(MESSAGES.signBlank);
  if (!HEX_SIGN.test(sign)) throw new AppError('invalid_signature');
  const { merchant, purpose } = await findSigner<SignPurpose>(directory, input.merchantId, (m) => {
    for (const purpose of input.accept) {
      const key = purpose === 'merchant' ? m.token : m.checkoutKey;
      if (hmacHexEquals(key, orderId, sign)) return purpose;
    }
    return null;
  });
  return { merchant, orderId, purpose };
}
