import { formatAmount } from '../domain/money.ts';
import type { Deps } from './deps.ts';
import { listTokens } from './resolve-token.ts';

/** Deposits no order took: paid after expiry, in the wrong token, or to an address without an open order. */
export async function listUnattributedDeposits(deps: Pick<Deps, 'db' | 'config'>, chain?: string) {
  const tokens = await listTokens(deps);
  return (await deps.db.unattributedTransfers(chain)).map((t) => {
    const token = tokens.find(
      (x) => x.chain === t.chain && (x.contract ?? '').toLowerCase() === (t.contract ?? '').toLowerCase(),
    );
    return {
      chain: t.chain,
      symbol: t.symbol,
      amount: token ? formatAmount(t.amountBase, token.decimals) : `${t.amountBase} base units`,
      txid: t.txid,
      from: t.from,
      to: t.to,
      blockNum: t.blockNum,
      status: t.status,
      reason: t.unattributedReason,
      seenAt: new Date(t.createdAt).toISOString(),
    };
  });
}
