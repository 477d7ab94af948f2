import { consumeNonce } from '../db/repositories/nonces.ts';
import { AppError, MESSAGES, validationError } from '../domain/errors.ts';
import { hmacHexEquals } from '../lib/hmac.ts';
import type { Deps } from './deps.ts';
import type { Merchant, MerchantDirectory } from './merchant-directory.ts';

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
 * Finds the merchant whose token signs `messages` (any of them): the one named by `merchantId`, or
 * else every active merchant in turn, each compared in constant time. Throws 401 when none does.
 */
export function findSigner(
  directory: MerchantDirectory,
  merchantId: string | undefined,
  messages: string[],
  sign: string,
): Merchant {
  const attempt = (): Merchant | null => {
    const candidates = merchantId
      ? [directory.byId(merchantId)].filter((m) => m !== null)
      : directory.active();
    for (const merchant of candidates) {
      for (const message of messages) if (hmacHexEquals(merchant.token, message, sign)) return merchant;
    }
    return null;
  };
  const found = attempt() ?? (directory.refreshIfOlderThan(100) ? attempt() : null);
  if (!found) throw new AppError('invalid_signature');
  return found;
}

/**
 * Authenticates a POST: timestamp within the window, a merchant token signing the `data` member
 * (its exact bytes in the body, or JSON.stringify of it). Does not consume the nonce: call
 * `consumeRequestNonce` once the request is admitted.
 */
export function authenticatePost(
  deps: Pick<Deps, 'config' | 'clock'>,
  directory: MerchantDirectory,
  input: { envelope: Envelope; rawData: string | null; merchantId: string | undefined },
): Merchant {
  const { envelope } = input;
  const windowMs = deps.config.auth.timestampWindowSeconds * 1000;
  if (Math.abs(deps.clock.now() - envelope.timestamp * 1000) > windowMs)
    throw new AppError('timestamp_window');
  const messages = [JSON.stringify(envelope.data)];
  if (input.rawData !== null && input.rawData !== messages[0]) messages.unshift(input.rawData);
  return findSigner(directory, input.merchantId, messages, envelope.sign);
}

/** Records the envelope's nonce for the merchant; throws 401 when it was used within the window. */
export async function consumeRequestNonce(
  deps: Pick<Deps, 'config' | 'db'>,
  merchant: Merchant,
  envelope: Envelope,
): Promise<void> {
  const expiresAt = envelope.timestamp * 1000 + deps.config.auth.timestampWindowSeconds * 1000 + 1000;
  if (!(await consumeNonce(deps.db, merchant.id, envelope.nonce, expiresAt)))
    throw new AppError('nonce_reused');
}

/** Authenticates a GET whose `sign` is the HMAC of the orderId under the merchant token. */
export function authenticateOrderQuery(
  directory: MerchantDirectory,
  input: { orderId: string | undefined; sign: string | undefined; merchantId: string | undefined },
): { merchant: Merchant; orderId: string } {
  if (!input.orderId) throw validationError(MESSAGES.orderIdBlank);
  if (!input.sign) throw validationError(MESSAGES.signBlank);
  return {
    merchant: findSigner(directory, input.merchantId, [input.orderId], input.sign),
    orderId: input.orderId,
  };
}
