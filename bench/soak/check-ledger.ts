import type { Deps } from '../../src/services/deps.ts';
import type { Problem } from './check-orders.ts';
import type { SoakDatabase } from './database.ts';
import { FUNDING } from './kassa-setup.ts';

/**
 * The ledger: each balance is the sum of its entries, and what the orders moved (the funding, plus
 * the collections credited, minus the payouts sent), with nothing left frozen.
 */
export async function checkLedger(rt: Deps, db: SoakDatabase, problem: Problem): Promise<void> {
  const { q } = db;
  const sums = await rt.db.sumLedgerEntries();
  const balances = await rt.db.listBalances();
  for (const b of balances) {
    const key = `${b.merchantId}/${b.chain}/${b.symbol}`;
    const s = sums.get(key);
    if (!s || s.available !== b.available || s.frozen !== b.frozen)
      problem(
        `balance ${key} (${b.available}/${b.frozen}) is not the sum of its entries (${s?.available}/${s?.frozen})`,
      );
    const credits = q<{ a: string; f: string }>(
      "SELECT actual_amount_base AS a, fee AS f FROM orders WHERE merchant_id = ? AND chain = ? AND symbol = ? AND type = 'COLLECTION' AND status = 'SUCCESS'",
      b.merchantId,
      b.chain,
      b.symbol,
    );
    const paidOut = q<{ a: string }>(
      "SELECT amount_base AS a FROM orders WHERE merchant_id = ? AND chain = ? AND symbol = ? AND type = 'PAYOUT' AND status = 'SUCCESS'",
      b.merchantId,
      b.chain,
      b.symbol,
    );
    const funded =
      b.chain === 'ETH' && b.symbol === 'USDC' ? 0n : BigInt(FUNDING) * 10n ** BigInt(b.decimals);
    const expected =
      funded + credits.reduce((s, r) => s + BigInt(r.a), 0n) - paidOut.reduce((s, r) => s + BigInt(r.a), 0n);
    if (b.available !== expected || b.frozen !== 0n)
      problem(
        `balance ${key}: available ${b.available}, frozen ${b.frozen}; the orders say ${expected} and 0`,
      );
  }
}
