import { AppError } from '../domain/errors.ts';
import type { Deps } from './deps.ts';
import { type BalanceView, type EntryView, entryView, ledgerBalances } from './manage-ledger.ts';
import { cursorText, parseCursor } from './search-orders.ts';

/** How many ledger entries one page shows. */
export const LEDGER_PAGE_SIZE = 50;

/** One page of a merchant's ledger with its balances. */
export interface LedgerPage {
  merchant: { id: string; name: string | null; kind: string; status: string };
  balances: BalanceView[];
  /** Newest first. */
  entries: EntryView[];
  /** Pass as `after` for the next (older) page; null on the last page. */
  next: string | null;
  /**
   * The merchant's newest operator adjustment (null: none): an adjustment form drawn now carries
   * it, so that a second submission of the same form is refused instead of adjusting twice.
   */
  lastAdjustment: string | null;
}

/**
 * A merchant's balances and one page of its ledger, newest first, each entry with the orderId that
 * caused it or the operator's reason. Bounded work per page whatever the ledger's length. Throws
 * `not_found` for an unknown merchant and `validation` for a bad page link.
 */
export async function browseLedger(
  deps: Pick<Deps, 'db'>,
  query: { merchantId: string; after?: string | undefined },
  limit = LEDGER_PAGE_SIZE,
): Promise<LedgerPage> {
  const merchant = await deps.db.findMerchant(query.merchantId);
  if (!merchant) throw new AppError('not_found', `No merchant ${query.merchantId}.`);
  const before = query.after ? parseCursor(query.after) : null;
  const rows = await deps.db.pageLedgerEntries({ merchantId: merchant.id, before, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    merchant: { id: merchant.id, name: merchant.name, kind: merchant.kind, status: merchant.status },
    balances: await ledgerBalances(deps, { merchantId: merchant.id }),
    entries: page.map(entryView),
    next: rows.length > limit && last ? cursorText({ createdAt: last.createdAt, id: last.id }) : null,
    lastAdjustment: await deps.db.lastAdjustmentId(merchant.id),
  };
}
