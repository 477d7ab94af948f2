import type { MerchantBalance } from '../db/store.ts';

import { type Chain, isChain } from '../domain/chains.ts';
import { AppError } from '../domain/errors.ts';
import { formatAmount, parseSignedAmount } from '../domain/money.ts';
import type { Deps } from './deps.ts';
import { resolveToken } from './resolve-token.ts';

/** A balance as people read it: decimal strings, ISO times. */
export interface BalanceView {
  merchantId: string;
  chain: string;
  symbol: string;
  available: string;
  frozen: string;
  total: string;
  updatedAt: string;
}

/** A ledger entry as people read it. */
export interface EntryView {
  id: string;
  chain: string;
  symbol: string;
  kind: string;
  available: string;
  frozen: string;
  orderId: string | null;
  reason: string | null;
  createdAt: string;
}

/** A balance in decimal strings. */
export function balanceView(b: MerchantBalance): BalanceView {
  const f = (v: bigint) => formatAmount(v, b.decimals);
  return {
    merchantId: b.merchantId,
    chain: b.chain,
    symbol: b.symbol,
    available: f(b.available),
    frozen: f(b.frozen),
    total: f(b.available + b.frozen),
    updatedAt: new Date(b.updatedAt).toISOString(),
  };
}

function signed(v: bigint, decimals: number): string {
  return v > 0n ? `+${formatAmount(v, decimals)}` : formatAmount(v, decimals);
}

/** Merchants' balances (all, or one merchant's), for `kassa ledger balances`. */
export async function ledgerBalances(
  deps: Pick<Deps, 'db'>,
  filter: { merchantId?: string } = {},
): Promise<BalanceView[]> {
  return (await deps.db.listBalances(filter)).map(balanceView);
}

/**
 * A merchant's ledger, oldest first, for `kassa ledger entries`: each movement with the merchant's
 * orderId of the order that caused it, or the operator's reason.
 */
export async function ledgerEntries(deps: Pick<Deps, 'db'>, merchantId: string): Promise<EntryView[]> {
  if (!(await deps.db.findMerchant(merchantId)))
    throw new AppError('not_found', `No merchant ${merchantId}.`);
  const entries = await deps.db.listLedgerEntries({ merchantId });
  return entries.map((e) => ({
    id: e.id,
    chain: e.chain,
    symbol: e.symbol,
    kind: e.kind,
    available: signed(e.availableDelta, e.decimals),
    frozen: signed(e.frozenDelta, e.decimals),
    orderId: e.orderId,
    reason: e.reason,
    createdAt: new Date(e.createdAt).toISOString(),
  }));
}

/**
 * Records an operator's top-up (`+X`) or correction (`-X`) of a merchant's available balance with a
 * required reason, as one ledger entry. Refuses an unknown merchant, chain or token, an amount that
 * is not an exact signed decimal for the token, a blank reason, and a correction larger than what
 * is available (`ledger_negative`).
 */
export async function adjustLedger(
  deps: Pick<Deps, 'db' | 'config' | 'clock' | 'logger'>,
  input: { merchantId: string; chain: string; symbol: string; amount: string; reason: string },
): Promise<BalanceView> {
  if (!(await deps.db.findMerchant(input.merchantId)))
    throw new AppError('not_found', `No merchant ${input.merchantId}.`);
  if (!isChain(input.chain)) throw new AppError('validation', `Unknown chain ${input.chain}.`);
  const token = await resolveToken(deps, input.chain as Chain, input.symbol);
  if (!token) throw new AppError('validation', `${input.symbol} is not a token on ${input.chain}.`);
  const reason = input.reason.trim();
  if (reason === '') throw new AppError('validation', 'An adjustment needs a reason.');
  const parsed = parseSignedAmount(input.amount.trim(), token.decimals);
  if (!parsed.ok) {
    throw new AppError(
      'validation',
      `The amount must be a signed decimal with at most ${token.decimals} decimals, such as +100 or -2.5.`,
    );
  }
  const key = { merchantId: input.merchantId, chain: token.chain, symbol: token.symbol };
  const balance = await deps.db
    .adjustBalance({
      ...key,
      decimals: token.decimals,
      amountBase: parsed.base,
      reason,
      now: deps.clock.now(),
    })
    .catch(async (error: unknown) => {
      if (!(error instanceof AppError) || error.code !== 'ledger_negative') throw error;
      const [now] = await deps.db.listBalances(key);
      throw new AppError(
        'ledger_negative',
        `${input.merchantId} has ${formatAmount(now?.available ?? 0n, token.decimals)} ${token.symbol} available on ${token.chain}; an adjustment of ${signed(parsed.base, token.decimals)} would take it below zero (frozen money belongs to payouts in flight).`,
      );
    });
  deps.logger.info(
    {
      merchantId: input.merchantId,
      chain: token.chain,
      symbol: token.symbol,
      amount: signed(parsed.base, token.decimals),
      reason,
    },
    'ledger adjusted',
  );
  return balanceView(balance);
}
