import type { SweepStore } from '../../store/sweeping.ts';
import type { PgDb } from '../client.ts';
import * as operatorCosts from '../repositories/operator-costs.ts';
import * as sweepCandidates from '../repositories/sweep-candidates.ts';
import * as sweeps from '../repositories/sweeps.ts';
import * as walletLeases from '../repositories/wallet-leases.ts';

/** SweepStore on PostgreSQL (the contract: src/db/store/sweeping.ts). */
export function pgSweepStore(db: PgDb): SweepStore {
  return {
    // ../repositories/sweep-candidates.ts, sweeps.ts, operator-costs.ts, wallet-leases.ts
    sweepCandidates: (input) => sweepCandidates.sweepCandidates(db, input),
    insertSweep: (sweep) => sweeps.insertSweep(db, sweep),
    recordSweepStep: (input) => sweeps.recordSweepStep(db, input),
    openSweeps: (chain) => sweeps.openSweeps(db, chain),
    findSweep: (id) => sweeps.findSweep(db, id),
    sweepTxsOf: (sweepId) => sweeps.sweepTxsOf(db, sweepId),
    sweepSpendsFrom: (input) => sweeps.sweepSpendsFrom(db, input),
    listSweeps: (input) => sweeps.listSweeps(db, input),
    sweepTotals: () => sweeps.sweepTotals(db),
    sumOperatorCosts: () => operatorCosts.sumOperatorCosts(db),
    acquireWalletLease: (input) => walletLeases.acquireWalletLease(db, input),
    releaseWalletLease: (input) => walletLeases.releaseWalletLease(db, input),
  };
}
