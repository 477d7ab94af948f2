import type { SweepStore } from '../../store/sweeping.ts';
import type { PgDb } from '../client.ts';
import { notPorted } from './not-ported.ts';

/** SweepStore on PostgreSQL (the contract: src/db/store/sweeping.ts). */
export function pgSweepStore(_db: PgDb): SweepStore {
  return {
    sweepCandidates: notPorted('sweepCandidates'),
    insertSweep: notPorted('insertSweep'),
    recordSweepStep: notPorted('recordSweepStep'),
    openSweeps: notPorted('openSweeps'),
    findSweep: notPorted('findSweep'),
    sweepTxsOf: notPorted('sweepTxsOf'),
    sweepSpendsFrom: notPorted('sweepSpendsFrom'),
    listSweeps: notPorted('listSweeps'),
    sweepTotals: notPorted('sweepTotals'),
    sumOperatorCosts: notPorted('sumOperatorCosts'),
    acquireWalletLease: notPorted('acquireWalletLease'),
    releaseWalletLease: notPorted('releaseWalletLease'),
  };
}
