/**
 * Executed transactions and the checkpoint chain. Checkpoints form an append-only list that never
 * forks: checkpoint 0 is genesis (its digest is the chain id), and each later checkpoint takes every
 * transaction executed since the previous one, in execution order. A transaction is visible as soon
 * as it is executed (with no `checkpoint` yet) and gains `checkpoint` and `timestamp` when sealed.
 *
 * Summary and contents are BCS-encoded in the layout of sui-types `CheckpointSummary` and
 * `CheckpointContents::V1`, and digested as `BLAKE2b-256("<Type>::" || bcs)`.
 */
import { bcs } from '@mysten/sui/bcs';
import { fromBase64 } from '@mysten/sui/utils';
import type { GasCost } from './gas.ts';
import { typedDigest } from './hashing.ts';
import type { Checkpoint, ExecutedTransaction } from './proto.ts';
import { timestampOf, userSignature } from './render.ts';

/** One executed transaction as the ledger keeps it. */
export interface TransactionRecord {
  digest: string;
  effectsDigest: string;
  /** The full message; `checkpoint` and `timestamp` are set when the checkpoint is sealed. */
  executed: ExecutedTransaction;
  /** Serialized signatures, base64. */
  signatures: string[];
  checkpoint: bigint | undefined;
}

/** One sealed checkpoint. */
export interface CheckpointRecord {
  sequenceNumber: bigint;
  digest: string;
  epoch: bigint;
  timestampMs: bigint;
  previousDigest: string | undefined;
  contentDigest: string;
  versionSpecificData: Uint8Array;
  summaryBcs: Uint8Array;
  contentsBcs: Uint8Array;
  networkTotalTransactions: bigint;
  rollingGas: GasCost;
  transactions: TransactionRecord[];
}

const GasCostSummary = bcs.struct('GasCostSummary', {
  computationCost: bcs.u64(),
  storageCost: bcs.u64(),
  storageRebate: bcs.u64(),
  nonRefundableStorageFee: bcs.u64(),
});

const CheckpointSummaryBcs = bcs.struct('CheckpointSummary', {
  epoch: bcs.u64(),
  sequenceNumber: bcs.u64(),
  networkTotalTransactions: bcs.u64(),
  contentDigest: bcs.ObjectDigest,
  previousDigest: bcs.option(bcs.ObjectDigest),
  epochRollingGasCostSummary: GasCostSummary,
  timestampMs: bcs.u64(),
  /** Always empty in the fake. */
  checkpointCommitments: bcs.vector(bcs.u8()),
  /** Always None in the fake (no epoch changes). */
  endOfEpochData: bcs.option(bcs.u8()),
  versionSpecificData: bcs.byteVector(),
});

const CheckpointContentsBcs = bcs.enum('CheckpointContents', {
  V1: bcs.struct('CheckpointContentsV1', {
    transactions: bcs.vector(
      bcs.struct('ExecutionDigests', { transaction: bcs.ObjectDigest, effects: bcs.ObjectDigest }),
    ),
    userSignatures: bcs.vector(bcs.vector(bcs.byteVector())),
  }),
});

const ZERO_GAS: GasCost = {
  computationCost: 0n,
  storageCost: 0n,
  storageRebate: 0n,
  nonRefundableStorageFee: 0n,
};

/** Transactions by digest, the pending ones, and the sealed checkpoints. */
export class Ledger {
  private readonly transactions = new Map<string, TransactionRecord>();
  private pending: TransactionRecord[] = [];
  private readonly checkpoints: CheckpointRecord[] = [];
  private readonly checkpointsByDigest = new Map<string, CheckpointRecord>();
  private readonly listeners = new Set<(checkpoint: CheckpointRecord) => void>();

  /**
   * Seals the genesis checkpoint: empty, at a fixed time, with `genesisData` (derived from the seed)
   * as its version-specific data, so the chain id depends on the seed and nothing else.
   */
  constructor(
    private readonly epoch: bigint,
    genesisTimestampMs: bigint,
    genesisData: Uint8Array,
  ) {
    this.seal(genesisTimestampMs, genesisData);
  }

  /** Records an executed transaction; it lands in the next sealed checkpoint. Throws if recorded twice. */
  record(tx: TransactionRecord): void {
    if (this.transactions.has(tx.digest)) throw new Error(`transaction ${tx.digest} already recorded`);
    this.transactions.set(tx.digest, tx);
    this.pending.push(tx);
  }

  /** The executed transaction with this digest, if any. */
  get(digest: string): TransactionRecord | undefined {
    return this.transactions.get(digest);
  }

  /** Seals every pending transaction into the next checkpoint (possibly empty) and notifies listeners. */
  seal(nowMs: bigint, versionSpecificData: Uint8Array = new Uint8Array(0)): CheckpointRecord {
    const previous = this.checkpoints.at(-1);
    const sequenceNumber = previous ? previous.sequenceNumber + 1n : 0n;
    const timestampMs = previous && previous.timestampMs > nowMs ? previous.timestampMs : nowMs;
    const transactions = this.pending;
    this.pending = [];
    const rollingGas = { ...(previous?.rollingGas ?? ZERO_GAS) };
    for (const tx of transactions) {
      const used = tx.executed.effects?.gasUsed;
      rollingGas.computationCost += used?.computationCost ?? 0n;
      rollingGas.storageCost += used?.storageCost ?? 0n;
      rollingGas.storageRebate += used?.storageRebate ?? 0n;
      rollingGas.nonRefundableStorageFee += used?.nonRefundableStorageFee ?? 0n;
    }
    const contentsBcs = CheckpointContentsBcs.serialize({
      V1: {
        transactions: transactions.map((t) => ({ transaction: t.digest, effects: t.effectsDigest })),
        userSignatures: transactions.map((t) => t.signatures.map((s) => fromBase64(s))),
      },
    }).toBytes();
    const contentDigest = typedDigest('CheckpointContents', contentsBcs);
    const networkTotalTransactions = (previous?.networkTotalTransactions ?? 0n) + BigInt(transactions.length);
    const summaryBcs = CheckpointSummaryBcs.serialize({
      epoch: this.epoch,
      sequenceNumber,
      networkTotalTransactions,
      contentDigest,
      previousDigest: previous?.digest ?? null,
      epochRollingGasCostSummary: rollingGas,
      timestampMs,
      checkpointCommitments: [],
      endOfEpochData: null,
      versionSpecificData,
    }).toBytes();
    const record: CheckpointRecord = {
      sequenceNumber,
      digest: typedDigest('CheckpointSummary', summaryBcs),
      epoch: this.epoch,
      timestampMs,
      previousDigest: previous?.digest,
      contentDigest,
      versionSpecificData,
      summaryBcs,
      contentsBcs,
      networkTotalTransactions,
      rollingGas,
      transactions,
    };
    for (const tx of transactions) {
      tx.checkpoint = sequenceNumber;
      tx.executed.checkpoint = sequenceNumber;
      tx.executed.timestamp = timestampOf(timestampMs);
    }
    this.checkpoints.push(record);
    this.checkpointsByDigest.set(record.digest, record);
    for (const listener of this.listeners) listener(record);
    return record;
  }

  /** The checkpoint at a sequence number, if sealed. */
  checkpoint(sequenceNumber: bigint): CheckpointRecord | undefined {
    return sequenceNumber < 0n || sequenceNumber > BigInt(Number.MAX_SAFE_INTEGER)
      ? undefined
      : this.checkpoints[Number(sequenceNumber)];
  }

  /** The checkpoint with a digest, if sealed. */
  checkpointByDigest(digest: string): CheckpointRecord | undefined {
    return this.checkpointsByDigest.get(digest);
  }

  /** The latest sealed checkpoint. */
  get latest(): CheckpointRecord {
    return this.checkpoints.at(-1)!;
  }

  /** The genesis checkpoint. */
  get genesis(): CheckpointRecord {
    return this.checkpoints[0]!;
  }

  /** Transactions executed but not yet in a checkpoint. */
  get pendingCount(): number {
    return this.pending.length;
  }

  /** Number of executed transactions. */
  get transactionCount(): number {
    return this.transactions.size;
  }

  /** Calls `listener` for each checkpoint sealed from now on; returns the unsubscribe function. */
  onCheckpoint(listener: (checkpoint: CheckpointRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The gRPC `Checkpoint` for a sealed checkpoint, with summary, contents, transactions and objects. */
export function checkpointMessage(record: CheckpointRecord): Checkpoint {
  return {
    sequenceNumber: record.sequenceNumber,
    digest: record.digest,
    summary: {
      bcs: { name: 'CheckpointSummary', value: record.summaryBcs },
      digest: record.digest,
      epoch: record.epoch,
      sequenceNumber: record.sequenceNumber,
      totalNetworkTransactions: record.networkTotalTransactions,
      contentDigest: record.contentDigest,
      previousDigest: record.previousDigest,
      epochRollingGasCostSummary: record.rollingGas,
      timestamp: timestampOf(record.timestampMs),
      commitments: [],
      versionSpecificData: record.versionSpecificData,
    },
    contents: {
      bcs: { name: 'CheckpointContents', value: record.contentsBcs },
      digest: record.contentDigest,
      version: 1,
      transactions: record.transactions.map((t) => ({
        transaction: t.digest,
        effects: t.effectsDigest,
        signatures: t.signatures.map(userSignature),
      })),
    },
    transactions: record.transactions.map((t) => t.executed),
    objects: { objects: record.transactions.flatMap((t) => t.executed.objects?.objects ?? []) },
  };
}
