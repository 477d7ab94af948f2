import type { SweepStatus } from '../db/store.ts';
import { formatAmount } from '../domain/money.ts';
import type { Deps } from './deps.ts';

/** One sweep as `kassa sweeps list` shows it. */
export interface SweepView {
  id: string;
  chain: string;
  address: string;
  symbol: string;
  amount: string;
  destination: string;
  destinationKind: 'hot' | 'treasury';
  feeMode: string;
  status: SweepStatus;
  held: boolean;
  tries: number;
  error: string | null;
  /** The transactions, in order: role, txid, status. */
  transactions: { role: string; txid: string; status: string }[];
  createdAt: string;
  finalAt: string | null;
}

const STATUSES: readonly SweepStatus[] = [
  'planned',
  'gas_sent',
  'gas_final',
  'signed',
  'broadcast',
  'final',
  'failed',
];

/** Whether `text` names a sweep state. */
export const isSweepStatus = (text: string): text is SweepStatus =>
  (STATUSES as readonly string[]).includes(text);

/** Sweeps newest first (at most `limit`), optionally of one status or chain, with their transactions. */
export async function listSweepViews(
  deps: Pick<Deps, 'db'>,
  input: { status?: SweepStatus; chain?: string; limit?: number } = {},
): Promise<SweepView[]> {
  const rows = await deps.db.listSweeps(input);
  return Promise.all(
    rows.map(async (s) => ({
      id: s.id,
      chain: s.chain,
      address: s.address,
      symbol: s.symbol,
      amount: formatAmount(BigInt(s.amountBase), s.decimals),
      destination: s.destination,
      destinationKind: s.destinationKind,
      feeMode: s.feeMode,
      status: s.status,
      held: s.held,
      tries: s.tries,
      error: s.error,
      transactions: (await deps.db.sweepTxsOf(s.id)).map((t) => ({
        role: t.role,
        txid: t.txHash,
        status: t.status,
      })),
      createdAt: new Date(s.createdAt).toISOString(),
      finalAt: s.finalAt === null ? null : new Date(s.finalAt).toISOString(),
    })),
  );
}

/** The operator's sweeping costs per chain and kind, as decimal strings of the native coin. */
export async function operatorCostViews(
  deps: Pick<Deps, 'db'>,
): Promise<{ chain: string; kind: string; symbol: string; amount: string; transactions: number }[]> {
  return (await deps.db.sumOperatorCosts()).map((c) => ({
    chain: c.chain,
    kind: c.kind,
    symbol: c.symbol,
    amount: formatAmount(c.amountBase, c.decimals),
    transactions: c.count,
  }));
}
