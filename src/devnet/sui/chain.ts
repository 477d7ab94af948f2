/**
 * The state of one fake Sui chain and the operations on it, independent of HTTP: execute (verified,
 * idempotent), simulate, seal checkpoints. Genesis gives a faucet address a large SUI gas coin and
 * the test USDC's TreasuryCap; mints and SUI funding are ordinary signed faucet transactions (see
 * faucet.ts), so they appear in checkpoints with balance changes like any deposit would.
 */
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { type CoinInfo, coinRegistry, SUI_TYPE, usdcPackageId } from './coin-types.ts';
import {
  type ChainParams,
  commitOutcome,
  type ExecutionOutcome,
  executeTransaction,
  type ParsedTransaction,
  parseTransaction,
  requiredSigners,
} from './executor.ts';
import { OBJECT_STORAGE_COST } from './gas.ts';
import { blake2b256, deriveObjectId, digestBytes, labelDigest } from './hashing.ts';
import { type CheckpointRecord, Ledger, type TransactionRecord } from './ledger.ts';
import { type CoinObject, ObjectStore, sealObject, type TreasuryCapObject } from './objects.ts';
import { verifySignatures } from './signatures.ts';

/** How to create a chain. */
export interface ChainOptions {
  /** Everything deterministic (chain id, USDC package, faucet key, genesis objects) derives from it. */
  seed: string;
  referenceGasPrice: bigint;
  /** The (only) epoch. */
  epoch: bigint;
  /** SUI the faucet starts with, in MIST. */
  faucetSui: bigint;
  /** Current time in epoch ms, for checkpoint timestamps. */
  now: () => bigint;
}

/** Genesis time: fixed so the genesis checkpoint digest, the chain id, depends only on the seed. */
const GENESIS_TIMESTAMP_MS = BigInt(Date.UTC(2026, 0, 1));

/** The outcome of an ExecuteTransaction: the record, and whether it had already been executed. */
export interface ExecuteResult {
  record: TransactionRecord;
  alreadyExecuted: boolean;
}

/** One chain: object store, ledger, parameters, faucet identity; see the file comment. */
export class FakeSuiChain {
  readonly store = new ObjectStore();
  readonly ledger: Ledger;
  readonly params: ChainParams;
  readonly usdcType: string;
  readonly coins: Map<string, CoinInfo>;
  readonly chainId: string;
  readonly genesisTimestampMs = GENESIS_TIMESTAMP_MS;
  readonly faucet: {
    keypair: Ed25519Keypair;
    address: string;
    gasCoinId: string;
    treasuryCaps: Map<string, string>;
  };
  private readonly now: () => bigint;

  constructor(options: ChainOptions) {
    this.now = options.now;
    this.params = { epoch: options.epoch, referenceGasPrice: options.referenceGasPrice };
    this.usdcType = `${usdcPackageId(options.seed)}::usdc::USDC`;
    this.coins = coinRegistry(this.usdcType);

    const keypair = Ed25519Keypair.fromSecretKey(
      blake2b256(new TextEncoder().encode(`kassa-fake-sui/faucet/${options.seed}`)),
    );
    const address = keypair.toSuiAddress();
    const genesisTx = labelDigest(`kassa-fake-sui/genesis/${options.seed}`);
    this.ledger = new Ledger(options.epoch, GENESIS_TIMESTAMP_MS, digestBytes(genesisTx));
    this.chainId = this.ledger.genesis.digest;
    const gasCoin: CoinObject = sealObject({
      kind: 'coin',
      id: deriveObjectId(genesisTx, 0n),
      version: 1n,
      digest: '',
      owner: address,
      previousTransaction: genesisTx,
      storageRebate: OBJECT_STORAGE_COST,
      coinType: SUI_TYPE,
      balance: options.faucetSui,
    });
    const cap: TreasuryCapObject = sealObject({
      kind: 'treasury-cap',
      id: deriveObjectId(genesisTx, 1n),
      version: 1n,
      digest: '',
      owner: address,
      previousTransaction: genesisTx,
      storageRebate: OBJECT_STORAGE_COST,
      coinType: this.usdcType,
      totalSupply: 0n,
    });
    this.store.put(gasCoin);
    this.store.put(cap);
    this.faucet = {
      keypair,
      address,
      gasCoinId: gasCoin.id,
      treasuryCaps: new Map([[this.usdcType, cap.id]]),
    };
  }

  /**
   * Executes signed transaction bytes. Verifies the signatures, then either returns the earlier
   * result for the same digest (re-execution never applies twice) or checks inputs, runs, commits
   * and records in one synchronous step. Throws GrpcError on refusal (nothing applied).
   */
  async execute(bytes: Uint8Array, signatures: readonly Uint8Array[]): Promise<ExecuteResult> {
    const tx = parseTransaction(bytes);
    const encoded = await verifySignatures(bytes, signatures, requiredSigners(tx));
    return this.apply(tx, encoded);
  }

  /** Executes a transaction the node built and signed itself (the faucet), skipping re-verification. */
  executeTrusted(bytes: Uint8Array, signatures: readonly string[]): ExecuteResult {
    return this.apply(parseTransaction(bytes), signatures);
  }

  private apply(tx: ParsedTransaction, signatures: readonly string[]): ExecuteResult {
    const existing = this.ledger.get(tx.digest);
    if (existing) return { record: existing, alreadyExecuted: true };
    const outcome = executeTransaction(this.store, this.params, tx, signatures);
    commitOutcome(this.store, outcome);
    const record: TransactionRecord = {
      digest: outcome.digest,
      effectsDigest: outcome.effectsDigest,
      executed: outcome.executed,
      signatures: [...signatures],
      checkpoint: undefined,
    };
    this.ledger.record(record);
    return { record, alreadyExecuted: false };
  }

  /** Runs a transaction without committing anything (no signature check). Throws GrpcError on refusal. */
  simulate(bytes: Uint8Array): ExecutionOutcome {
    return executeTransaction(this.store, this.params, parseTransaction(bytes), []);
  }

  /** Seals pending transactions into a new checkpoint. */
  checkpoint(): CheckpointRecord {
    return this.ledger.seal(this.now());
  }

  /** The latest checkpoint's sequence number. */
  height(): bigint {
    return this.ledger.latest.sequenceNumber;
  }
}
