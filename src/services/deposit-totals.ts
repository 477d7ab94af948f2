import type { FinalTransferRow, SliceCursor } from '../db/store.ts';

import { formatAmount } from '../domain/money.ts';
import { nextTurn } from '../lib/next-turn.ts';
import type { Deps } from './deps.ts';
import { listTokens } from './resolve-token.ts';

/** Money that arrived on deposit addresses, per chain and token. */
export interface DepositTotal {
  chain: string;
  symbol: string;
  /** Every final incoming transfer, exact. */
  received: string;
  /** The part no order took (late, wrong token, no order). */
  unattributed: string;
  transfers: number;
}

/** Rows read per slice (about 10 ms here); between slices the event loop serves other requests. */
const SLICE = 1_000;

/**
 * Adds up every final transfer to a deposit address by chain and token (and the unattributed part):
 * what the deposit addresses received by its records, swept since or not. Reads the
 * transfers in slices of 1,000 rows in storage order, yielding to the event loop between slices.
 */
export async function depositTotals(deps: Pick<Deps, 'db' | 'config'>): Promise<DepositTotal[]> {
  const tokens = await listTokens(deps);
  const sums = new Map<
    string,
    { chain: string; symbol: string; contract: string | null; all: bigint; un: bigint; n: number }
  >();
  let after: SliceCursor | null = null;
  for (;;) {
    const slice: { rows: FinalTransferRow[]; next: SliceCursor | null } = await deps.db.finalTransfersSlice({
      after,
      limit: SLICE,
    });
    for (const r of slice.rows) {
      const key = `${r.chain}|${r.symbol}|${r.tokenContract ?? ''}`;
      const s = sums.get(key) ?? {
        chain: r.chain,
        symbol: r.symbol,
        contract: r.tokenContract,
        all: 0n,
        un: 0n,
        n: 0,
      };
      s.all += BigInt(r.amountBase);
      if (r.unattributed) s.un += BigInt(r.amountBase);
      s.n++;
      sums.set(key, s);
    }
    if (slice.next === null) break;
    after = slice.next;
    await nextTurn();
  }
  return [...sums.values()]
    .map((s) => {
      const token = tokens.find(
        (t) => t.chain === s.chain && (t.contract ?? '').toLowerCase() === (s.contract ?? '').toLowerCase(),
      );
      const show = (base: bigint) => (token ? formatAmount(base, token.decimals) : `${base} base units`);
      return {
        chain: s.chain,
        symbol: s.symbol,
        received: show(s.all),
        unattributed: show(s.un),
        transfers: s.n,
      };
    })
    .sort((a, b) => a.chain.localeCompare(b.chain) || a.symbol.localeCompare(b.symbol));
}
