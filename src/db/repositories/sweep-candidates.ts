import { and, eq, inArray, notInArray } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { chainTransfers } from '../schema/chain-transfers.ts';
import { depositAddresses } from '../schema/deposit-addresses.ts';
import { orders } from '../schema/orders.ts';
import { sweeps } from '../schema/sweeps.ts';

const FINAL_ORDER_STATUSES = ['SUCCESS', 'EXPIRED', 'FAILED'] as const;

/** A deposit address holding money the records say was never swept, per token. */
export interface SweepCandidate {
  address: string;
  depositIndex: number;
  symbol: string;
  tokenContract: string | null;
  /** Σ final incoming transfers − Σ what final sweeps moved out, in base units (> 0). */
  unsweptBase: bigint;
}

/**
 * Deposit addresses of a family that may be swept on `chain`: every final incoming transfer there
 * counts, and the address's order (if it has one) must be final (SUCCESS, EXPIRED, FAILED), so an
 * open order's address is never touched. Addresses with a transfer not final yet on the chain, or
 * with an open sweep on it, are left out. Amounts are summed here in TypeScript (TEXT columns).
 */
export async function sweepCandidates(
  db: Db,
  input: { chain: string; family: 'evm' | 'tron' | 'sui' },
): Promise<SweepCandidate[]> {
  const rows = db
    .select({
      address: chainTransfers.toAddress,
      symbol: chainTransfers.symbol,
      tokenContract: chainTransfers.tokenContract,
      amountBase: chainTransfers.amountBase,
      status: chainTransfers.status,
      depositIndex: depositAddresses.idx,
      orderStatus: orders.status,
    })
    .from(chainTransfers)
    .innerJoin(
      depositAddresses,
      and(eq(depositAddresses.address, chainTransfers.toAddress), eq(depositAddresses.family, input.family)),
    )
    .leftJoin(orders, eq(orders.id, depositAddresses.orderRef))
    .where(and(eq(chainTransfers.chain, input.chain), inArray(chainTransfers.status, ['pending', 'final'])))
    .all();
  const blocked = new Set<string>();
  const totals = new Map<string, SweepCandidate>();
  for (const r of rows) {
    if (r.status === 'pending') blocked.add(r.address);
    if (r.orderStatus !== null && !(FINAL_ORDER_STATUSES as readonly string[]).includes(r.orderStatus))
      blocked.add(r.address);
    if (r.status !== 'final') continue;
    const key = `${r.address}/${r.symbol}`;
    const c = totals.get(key) ?? {
      address: r.address,
      depositIndex: r.depositIndex,
      symbol: r.symbol,
      tokenContract: r.tokenContract,
      unsweptBase: 0n,
    };
    c.unsweptBase += BigInt(r.amountBase);
    totals.set(key, c);
  }
  const swept = db
    .select({
      address: sweeps.address,
      symbol: sweeps.symbol,
      amountBase: sweeps.amountBase,
      status: sweeps.status,
    })
    .from(sweeps)
    .where(and(eq(sweeps.chain, input.chain), notInArray(sweeps.status, ['failed'])))
    .all();
  for (const s of swept) {
    if (s.status !== 'final') {
      blocked.add(s.address);
      continue;
    }
    const c = totals.get(`${s.address}/${s.symbol}`);
    if (c) c.unsweptBase -= BigInt(s.amountBase);
  }
  return [...totals.values()].filter((c) => c.unsweptBase > 0n && !blocked.has(c.address));
}
