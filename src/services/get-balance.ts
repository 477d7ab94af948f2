import { listBalances } from '../db/repositories/ledger.ts';
import { formatAmount } from '../domain/money.ts';
import type { Deps } from './deps.ts';
import type { Merchant } from './merchant-directory.ts';
import { getBalanceData, parseRequest } from './request-schemas.ts';
import { listTokens } from './resolve-token.ts';

/** One element of getBalance's answer: `balance` is what can be paid out, `frozenBalance` is held by payouts in flight. */
export interface MerchantBalanceVo {
  chain: string;
  symbol: string;
  balance: string;
  frozenBalance: string;
  totalBalance: string;
  /** Unix seconds of the last movement; null for a token the merchant never moved. */
  updateTime: number | null;
}

/**
 * The merchant's balances for `POST /v1/merchant/getBalance`: every token offered (optionally of
 * one chain and symbol, symbols case-insensitive), zero where nothing moved yet, plus any token no
 * longer offered that still holds money. Amounts are decimal strings at the token's decimals.
 */
export async function getMerchantBalance(
  deps: Pick<Deps, 'db' | 'config'>,
  merchant: Merchant,
  data: Record<string, unknown>,
): Promise<MerchantBalanceVo[]> {
  const filter = parseRequest(getBalanceData, data);
  const chain = filter.chain || null;
  const symbol = filter.symbol?.toUpperCase() || null;
  const matches = (c: string, s: string) =>
    (chain === null || c === chain) && (symbol === null || s.toUpperCase() === symbol);
  const rows = (await listBalances(deps.db, { merchantId: merchant.id })).filter((b) =>
    matches(b.chain, b.symbol),
  );
  const stored = new Map(rows.map((b) => [`${b.chain}/${b.symbol}`, b]));
  const out: MerchantBalanceVo[] = [];
  for (const t of await listTokens(deps)) {
    if (!matches(t.chain, t.symbol)) continue;
    const b = stored.get(`${t.chain}/${t.symbol}`);
    stored.delete(`${t.chain}/${t.symbol}`);
    const f = (v: bigint) => formatAmount(v, t.decimals);
    out.push({
      chain: t.chain,
      symbol: t.symbol,
      balance: f(b?.available ?? 0n),
      frozenBalance: f(b?.frozen ?? 0n),
      totalBalance: f((b?.available ?? 0n) + (b?.frozen ?? 0n)),
      updateTime: b ? Math.floor(b.updatedAt / 1000) : null,
    });
  }
  for (const b of stored.values()) {
    const f = (v: bigint) => formatAmount(v, b.decimals);
    out.push({
      chain: b.chain,
      symbol: b.symbol,
      balance: f(b.available),
      frozenBalance: f(b.frozen),
      totalBalance: f(b.available + b.frozen),
      updateTime: Math.floor(b.updatedAt / 1000),
    });
  }
  return out;
}
