import { type Chain, isChain } from '../domain/chains.ts';
import { AppError, MESSAGES, validationError } from '../domain/errors.ts';
import { parseAmount } from '../domain/money.ts';
import type { MerchantKind } from '../domain/order.ts';
import type { Deps } from './deps.ts';
import type { TokenRef } from './payout-funding.ts';
import { resolveToken } from './resolve-token.ts';

/** Order fields common to collections and payouts, validated. */
export interface OrderInput {
  amount: string;
  amountBase: bigint;
  token: TokenRef;
  chain: Chain;
  orderId: string | null;
  uid: string | null;
}

/** A string field, or a number written as its decimal text (many clients send numbers); null if absent. */
export function textField(data: Record<string, unknown>, name: string): string | null {
  const v = data[name];
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw validationError(`The ${name} must be a string.`);
}

/**
 * Validates the fields both order types share, in the order of the interface's error table:
 * amount, symbol, chain (blank), then orderId / uid by merchant kind, then the amount's form,
 * the symbol on the chain, and the amount's precision for that token.
 */
export async function validateOrderInput(
  deps: Pick<Deps, 'config' | 'db'>,
  kind: MerchantKind,
  data: Record<string, unknown>,
  extraBlankChecks: () => void = () => {},
): Promise<OrderInput> {
  const amount = textField(data, 'amount');
  if (amount === null || amount === '') throw validationError(MESSAGES.amountBlank);
  const symbol = textField(data, 'symbol');
  if (symbol === null || symbol === '') throw validationError(MESSAGES.symbolBlank);
  const chain = data.chain;
  if (!isChain(chain)) throw validationError(MESSAGES.chainBlank);
  const orderId = textField(data, 'orderId');
  const uid = textField(data, 'uid');
  if (kind === 'V3' && !orderId) throw validationError(MESSAGES.orderIdBlank);
  if (kind === 'V2' && !uid) throw validationError(MESSAGES.uidBlank);
  if (uid === '0') throw validationError(MESSAGES.uidZero);
  extraBlankChecks();
  if (orderId !== null && orderId.length > 64) throw validationError(MESSAGES.orderIdTooLong);
  if (uid !== null && uid.length > 64) throw validationError(MESSAGES.uidTooLong);
  // The amount exactly as sent: money is never trimmed into shape (" 5" is refused, not read as 5).
  const sentAmount = typeof data.amount === 'string' ? data.amount : amount;
  if (!/^\d+(\.\d+)?$/.test(sentAmount)) throw validationError(MESSAGES.amountInvalid);
  const token = await resolveToken(deps, chain, symbol);
  if (!token) throw validationError(MESSAGES.symbolUnsupported);
  const parsed = parseAmount(amount, token.decimals);
  if (!parsed.ok) {
    throw validationError(
      parsed.reason === 'too-many-decimals' ? MESSAGES.amountPrecision : MESSAGES.amountInvalid,
    );
  }
  return { amount, amountBase: parsed.base, token, chain, orderId: orderId || null, uid: uid || null };
}

/** The parameters that make two creation requests "the same order". */
export function paramsKeyOf(parts: Record<string, string | null>): string {
  return JSON.stringify(parts);
}

/** Throws 409 when an existing order was created with different parameters. */
export function assertSameParams(existingKey: string, requestedKey: string): void {
  if (existingKey !== requestedKey) throw new AppError('order_conflict');
}
