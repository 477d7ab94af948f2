import type { Chain } from '../domain/chains.ts';
import { AppError, MESSAGES, validationError } from '../domain/errors.ts';
import { parseAmount } from '../domain/money.ts';
import type { MerchantKind } from '../domain/order.ts';
import type { Deps } from './deps.ts';
import type { TokenRef } from './payout-funding.ts';
import { orderRequestSchema, parseRequest } from './request-schemas.ts';
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

/**
 * Validates the fields both order types share with the request schemas (request-schemas.ts: the
 * blank fields, orderId / uid by merchant kind, lengths and the amount's form, reported in the
 * order of the interface's error table), then what needs the token registry: the symbol on the
 * chain and the amount's precision for that token. A payout's `receiveAddress` comes back checked
 * for blankness only; its format for the chain is the caller's to check.
 */
export async function validateOrderInput(
  deps: Pick<Deps, 'config' | 'db'>,
  kind: MerchantKind,
  data: Record<string, unknown>,
  type: 'collection' | 'payout' = 'collection',
): Promise<OrderInput & { receiveAddress: string | null }> {
  const request = parseRequest(orderRequestSchema(type, kind), data);
  const token = await resolveToken(deps, request.chain, request.symbol);
  if (!token) throw validationError(MESSAGES.symbolUnsupported);
  const parsed = parseAmount(request.amount, token.decimals);
  if (!parsed.ok) {
    throw validationError(
      parsed.reason === 'too-many-decimals' ? MESSAGES.amountPrecision : MESSAGES.amountInvalid,
    );
  }
  return {
    amount: request.amount,
    amountBase: parsed.base,
    token,
    chain: request.chain,
    orderId: request.orderId || null,
    uid: request.uid || null,
    receiveAddress: 'receiveAddress' in request ? (request.receiveAddress as string) : null,
  };
}

/** The parameters that make two creation requests "the same order". */
export function paramsKeyOf(parts: Record<string, string | null>): string {
  return JSON.stringify(parts);
}

/** Throws 409 when an existing order was created with different parameters. */
export function assertSameParams(existingKey: string, requestedKey: string): void {
  if (existingKey !== requestedKey) throw new AppError('order_conflict');
}
