import type { SweepCandidate } from '../repositories/sweep-candidates.ts';
import type {
  NewOperatorCost,
  NewSweep,
  NewSweepTx,
  OperatorCostKind,
  Sweep,
  SweepStatus,
  SweepStep,
  SweepTx,
  SweepTxUpdate,
} from '../repositories/sweeps.ts';

/** Sweeps and their transactions, the operator's costs, and the hot-wallet lease. Part of the Store port (../store.ts). */
export interface SweepStore {
  // Sweeps (repositories/sweep-candidates.ts, sweeps.ts)
  /**
   * Deposit addresses of a family that may be swept on `chain`: final incoming transfers there, the
   * address's order final (SUCCESS, EXPIRED, FAILED) or absent; none with a transfer not final yet
   * or an open sweep. What each still holds by the records (in minus what final sweeps moved out).
   */
  sweepCandidates(input: { chain: string; family: 'evm' | 'tron' | 'sui' }): Promise<SweepCandidate[]>;
  /** Stores a new sweep in `planned`; throws state_conflict when the address has an open sweep of the token. */
  insertSweep(sweep: NewSweep): Promise<Sweep>;
  /**
   * One step of a sweep, atomically: new signed transactions (stored before they are sent), what the
   * chain said about earlier ones, the costs paid, and the move from `step.from` to `step.to`. Throws
   * state_conflict (nothing written) when the sweep is no longer in `from` or a nonce is reused.
   */
  recordSweepStep(input: {
    step?: SweepStep;
    newTxs?: NewSweepTx[];
    txs?: SweepTxUpdate[];
    costs?: NewOperatorCost[];
    now: number;
  }): Promise<void>;
  /** The open sweeps of a chain, oldest first. */
  openSweeps(chain: string): Promise<Sweep[]>;
  /** A sweep by id. */
  findSweep(id: string): Promise<Sweep | null>;
  /** The transactions of a sweep, in the order they were signed. */
  sweepTxsOf(sweepId: string): Promise<SweepTx[]>;
  /** Sweep transactions from an address that may share a spend slot (EVM: the same nonce; elsewhere the latest). */
  sweepSpendsFrom(input: {
    chain: string;
    from: string;
    nonce: number | null;
    except?: string;
    limit?: number;
  }): Promise<SweepTx[]>;
  /** Sweeps, newest first, optionally of one status and chain. */
  listSweeps(input?: { status?: SweepStatus; chain?: string; limit?: number }): Promise<Sweep[]>;
  /** Per chain and symbol: sweeps by status, and what final sweeps moved. */
  sweepTotals(): Promise<
    { chain: string; symbol: string; decimals: number; counts: Map<SweepStatus, number>; sweptBase: bigint }[]
  >;
  // Operator costs (repositories/operator-costs.ts)
  /** Costs per chain and kind, summed. */
  sumOperatorCosts(): Promise<
    {
      chain: string;
      kind: OperatorCostKind;
      symbol: string;
      decimals: number;
      amountBase: bigint;
      count: number;
    }[]
  >;
  // The hot-wallet lease (repositories/wallet-leases.ts)
  /** Takes or renews the right to sign from a chain's hot wallet until `now + ttlMs`; false when another holder has it. */
  acquireWalletLease(input: { chain: string; holder: string; now: number; ttlMs: number }): Promise<boolean>;
  /** Gives the lease back (only if `holder` still has it). */
  releaseWalletLease(input: { chain: string; holder: string }): Promise<void>;
}
