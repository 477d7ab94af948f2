import { isChain } from '../domain/chains.ts';
import { MESSAGES, validationError } from '../domain/errors.ts';
import { formatAmount } from '../domain/money.ts';
import type { Deps } from './deps.ts';
import type { Merchant } from './merchant-directory.ts';
import { listTokens } from './resolve-token.ts';

/**
 * XPay's MerchantAssetsVo: one symbol's balance summed over every chain (XPay keeps one balance per
 * symbol). `balance` can be paid out, `frozenBalance` is held by payouts in flight. XPay's numeric
 * `id` and `merchantId` are left out (Kassa's ids are not numbers, and the Java SDK reads them as
 * Long); times are `yyyy-MM-dd HH:mm:ss` in UTC.
 */
export interface MerchantAssetsVo {
  symbol: string;
  balance: string;
  frozenBalance: string;
  totalBalance: string;
  createTime: string | null;
  updateTime: string | null;
}

/** XPay's date text (RuoYi's Jackson pattern), in UTC. */
function xpayTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The merchant's balance of one symbol the way XPay's `GET /v1/merchant/getBalance` answers it,
 * from the merchant ledger: the available and frozen amounts of that symbol (case-insensitive) on
 * every chain, or on `chain` alone when given (a Kassa addition), added up exactly at the finest
 * decimals among them. Zero for an offered symbol never moved. Throws XPay's texts: the symbol is
 * required, and one neither offered nor held is an `Unsupported asset type`.
 */
export async function getXpayBalance(
  deps: Pick<Deps, 'db' | 'config'>,
  merchant: Merchant,
  query: { symbol: string | undefined; chain: string | undefined },
): Promise<MerchantAssetsVo> {
  const symbol = query.symbol?.trim().toUpperCase();
  if (!symbol) throw validationError(MESSAGES.symbolBlank);
  const chain = query.chain?.trim() || undefined;
  if (chain !== undefined && !isChain(chain)) throw validationError(MESSAGES.chainUnsupported);
  const matches = (c: string, s: string) =>
    s.toUpperCase() === symbol && (chain === undefined || c === chain);
  const rows = (await deps.db.listBalances({ merchantId: merchant.id })).filter((b) =>
    matches(b.chain, b.symbol),
  );
  const offered = (await listTokens(deps)).filter((t) => matches(t.chain, t.symbol));
  if (rows.length === 0 && offered.length === 0) throw validationError('Unsupported asset type');
  const decimals = Math.max(...rows.map((b) => b.decimals), ...offered.map((t) => t.decimals));
  const scale = (v: bigint, d: number) => v * 10n ** BigInt(decimals - d);
  let available = 0n;
  let frozen = 0n;
  for (const b of rows) {
    available += scale(b.available, b.decimals);
    frozen += scale(b.frozen, b.decimals);
  }
  const f = (v: bigint) => formatAmount(v, decimals);
  const created = rows.length ? Math.min(...rows.map((b) => b.createdAt)) : null;
  const updated = rows.length ? Math.max(...rows.map((b) => b.updatedAt)) : null;
  return {
    symbol: rows[0]?.symbol ?? offered[0]?.symbol ?? symbol,
    balance: f(available),
    frozenBalance: f(frozen),
    totalBalance: f(available + frozen),
    createTime: created === null ? null : xpayTime(created),
    updateTime: updated === null ? null : xpayTime(updated),
  };
}
