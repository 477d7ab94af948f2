import type { SuiGrpcClient } from '@mysten/sui/grpc';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { fromBase64, normalizeSuiAddress } from '@mysten/sui/utils';
import type { ActiveChain } from '../../config/active-chain.ts';
import type { Chain } from '../../domain/chains.ts';
import { formatAmount } from '../../domain/money.ts';
import type { Logger } from '../../lib/logger.ts';
import { mapLimit } from '../../lib/map-limit.ts';
import {
  type BlockRef,
  type BroadcastResult,
  type ChainAdapter,
  type ChainHeads,
  ChainMismatchError,
  type ObservedTransfer,
  type PayoutLookup,
  PayoutRejectedError,
  type RecordedSpend,
  type SignedPayout,
  type SlotVerdict,
  type TokenSpec,
} from '../port.ts';
import { corroboratedVerdict, needsSecondOpinion } from '../slot-verdict.ts';
import {
  checkpointRef,
  depositsInCheckpoint,
  normalizeCoinType,
  SUI_COIN_TYPE,
  tokensByCoinType,
} from './deposits.ts';
import { type CallOptions, type ExecutionStatus, grpcCode, isNotFound, MASKS, SuiRpc } from './grpc.ts';
import {
  buildPayoutTransaction,
  type CoinRef,
  decodeRaw,
  encodeRaw,
  MAX_COINS_PER_TRANSACTION,
  type ObjectRef,
  ownedInputs,
  type SignedTransaction,
  selectCoins,
  transactionDigest,
} from './payout-tx.ts';

/** Checkpoints per scan step (each read with one GetCheckpoint). */
export const SCAN_STEP = 100;
/** GetCheckpoint calls in flight during a scan. */
const SCAN_CONCURRENCY = 16;
/** Checkpoint references kept in memory (checkpoints never change once sealed). */
const BLOCK_CACHE_SIZE = 4096;
/** Signed transactions remembered to keep their coins out of new payouts while they may execute. */
const KNOWN_TX_LIMIT = 1000;
const COIN_PAGE_SIZE = 1000;
const MAX_COIN_PAGES = 50;

/** Computation units the node requires a budget to cover at least (budget ≥ price × units). */
const MIN_BUDGET_UNITS = 1_000n;
/** Computation units added on top of the dry run's cost (what the SDK adds as its safe overhead). */
const BUDGET_OVERHEAD_UNITS = 1_000n;
/** Percent added to the dry run's computation + storage cost. */
const BUDGET_MARGIN_PERCENT = 20n;
/**
 * The pessimistic fee of one payout for the 422 check: 5,000 computation units at the reference
 * gas price plus four object writes of storage at 3,000,000 MIST each (a coin costs about 1,976,000
 * at today's storage price). Every budget signPayout picks for a payout with a handful of coins
 * stays below it.
 */
const FEE_COMPUTATION_UNITS = 5_000n;
const FEE_STORAGE_MIST = 12_000_000n;
/** The dry run runs with at most this many times the fee estimate as budget. */
const DRY_RUN_BUDGET_FACTOR = 10n;

/** `ExecutionError.kind` values of sui.rpc.v2 (protobuf enum numbers never change). */
export const EXECUTION_ERROR_KIND = { INSUFFICIENT_GAS: 1, INSUFFICIENT_COIN_BALANCE: 8 } as const;

/** The pessimistic fee of one payout, in MIST, at a reference gas price. */
export function payoutFeeCeiling(referenceGasPrice: bigint): bigint {
  return referenceGasPrice * FEE_COMPUTATION_UNITS + FEE_STORAGE_MIST;
}

function describeFailure(status: ExecutionStatus | undefined): string {
  const error = status?.error;
  if (!error) return 'the transaction failed';
  const text = error.description || `execution error kind ${error.kind}`;
  return error.command === undefined || text.includes('command')
    ? text
    : `${text} in command ${error.command}`;
}

const objectKey = (ref: { objectId: string; version: string }) => `${ref.objectId}@${ref.version}`;

/** The owned inputs of a stored transaction, or null when it cannot be read. */
function refsOf(raw: string): ObjectRef[] | null {
  try {
    return ownedInputs(decodeRaw(raw).bytes);
  } catch {
    return null;
  }
}

interface KnownTransaction extends SignedTransaction {
  refs: ObjectRef[];
  /** Given to broadcast at least once, so it may be on the network. */
  sent: boolean;
}

export interface SuiAdapterOptions {
  timeoutMs?: number;
  /** First back-off delay of the RPC fail-over (tests shorten it). */
  baseDelayMs?: number;
}

/**
 * The SUI adapter on `SuiGrpcClient` (gRPC-Web, @mysten/sui 1.45): heights are checkpoint sequence
 * numbers, deposits come from the balance changes of each checkpoint's transactions (coin objects
 * and address balances alike), and payouts are fully specified transactions (coins read, budget
 * sized by a dry run) signed locally with the hot wallet's ed25519 key. Executing the same signed
 * bytes twice is idempotent on Sui, so a re-broadcast never pays twice; a new transaction replaces
 * one only when the old one provably can never execute (judgeSlot).
 */
export class SuiAdapter implements ChainAdapter {
  readonly family = 'sui' as const;
  readonly chain: Chain;
  readonly rpc: SuiRpc;
  private readonly blocks = new Map<number, BlockRef>();
  private readonly known = new Map<string, KnownTransaction>();

  constructor(
    private readonly settings: ActiveChain,
    private readonly logger: Logger,
    options: SuiAdapterOptions = {},
  ) {
    this.chain = settings.chain;
    this.rpc = new SuiRpc(settings.rpc, logger, options);
  }

  /**
   * Reads the node's chain id and checks that every configured coin type exists there with the
   * configured decimals: a coin type the node does not know means it serves another network
   * (mainnet USDC on a testnet node), so the chain is disabled (ChainMismatchError).
   */
  async connect(): Promise<void> {
    const info = await this.rpc.call((c, o) => c.ledgerService.getServiceInfo({}, o).response);
    for (const token of this.settings.tokens) {
      const coinType = token.contract === null ? SUI_COIN_TYPE : normalizeCoinType(token.contract);
      if (coinType === null) {
        throw new ChainMismatchError(
          `${this.chain}: ${token.symbol} is configured with "${token.contract}", which is not a Sui coin type`,
        );
      }
      let decimals: number | undefined;
      try {
        const found = await this.rpc.call((c, o) => c.stateService.getCoinInfo({ coinType }, o).response);
        decimals = found.metadata?.decimals;
      } catch (error) {
        if (!isNotFound(error)) throw error;
        throw new ChainMismatchError(
          `${this.chain}: the RPC (chain id ${info.chainId}) does not know the coin type ${coinType} configured for ${token.symbol}; it serves another network, so the chain is disabled`,
        );
      }
      if (decimals !== undefined && decimals !== token.decimals) {
        throw new ChainMismatchError(
          `${this.chain}: ${token.symbol} (${coinType}) has ${decimals} decimals on the RPC (chain id ${info.chainId}), but ${token.decimals} are configured; the chain is disabled`,
        );
      }
    }
    this.logger.info(
      {
        chain: this.chain,
        chainId: info.chainId,
        network: info.chain,
        height: String(info.checkpointHeight),
      },
      'sui rpc checked',
    );
  }

  /** Head = the latest checkpoint. `finalized` → final = head (executed and checkpointed); N → head − N + 1. */
  async heads(): Promise<ChainHeads> {
    const info = await this.rpc.call((c, o) => c.ledgerService.getServiceInfo({}, o).response);
    const head = Number(info.checkpointHeight ?? 0n);
    let final =
      this.settings.confirmations === 'finalized'
        ? head
        : head - Math.max(this.settings.confirmations, 1) + 1;
    if (this.settings.confirmationFloor > 0)
      final = Math.min(final, head - this.settings.confirmationFloor + 1);
    return { head, final: Math.max(-1, Math.min(final, head)) };
  }

  /** A checkpoint as a block: sequence number, digest, unix seconds; null when the node has none there. */
  async block(height: number): Promise<BlockRef | null> {
    if (!Number.isSafeInteger(height) || height < 0) return null;
    const cached = this.blocks.get(height);
    if (cached) return cached;
    try {
      const { checkpoint } = await this.rpc.call(
        (c, o) =>
          c.ledgerService.getCheckpoint(
            {
              checkpointId: { oneofKind: 'sequenceNumber', sequenceNumber: BigInt(height) },
              readMask: { paths: [...MASKS.checkpointRef] },
            },
            o,
          ).response,
      );
      if (!checkpoint) return null;
      return this.remember(checkpointRef(checkpoint));
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  private remember(ref: BlockRef): BlockRef {
    if (this.blocks.size >= BLOCK_CACHE_SIZE) {
      const oldest = this.blocks.keys().next().value;
      if (oldest !== undefined) this.blocks.delete(oldest);
    }
    this.blocks.set(ref.number, ref);
    return ref;
  }

  scanStep(): number {
    return SCAN_STEP;
  }

  /**
   * Deposits in checkpoints [from, to]: each checkpoint read once with its transactions' digest,
   * sender, status and balance changes, 16 at a time. Throws when the node lacks a checkpoint in the
   * range (pruned, or a lagging node): the scan step is retried, nothing is skipped.
   */
  async scan(
    from: number,
    to: number,
    addresses: ReadonlySet<string>,
    tokens: TokenSpec[],
  ): Promise<ObservedTransfer[]> {
    if (addresses.size === 0 || from > to) return [];
    const watched = tokensByCoinType(tokens);
    if (watched.size === 0) return [];
    const heights = Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const found = await mapLimit(heights, SCAN_CONCURRENCY, async (height) => {
      let checkpoint: Awaited<
        ReturnType<SuiGrpcClient['ledgerService']['getCheckpoint']>['response']
      >['checkpoint'];
      try {
        ({ checkpoint } = await this.rpc.call(
          (c, o) =>
            c.ledgerService.getCheckpoint(
              {
                checkpointId: { oneofKind: 'sequenceNumber', sequenceNumber: BigInt(height) },
                readMask: { paths: [...MASKS.checkpointDeposits] },
              },
              o,
            ).response,
        ));
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
      if (!checkpoint) {
        throw new Error(
          `${this.chain}: the RPC has no checkpoint ${height} (pruned, or the node lags); the scan will retry`,
        );
      }
      this.remember(checkpointRef(checkpoint));
      return depositsInCheckpoint(checkpoint, addresses, watched);
    });
    return found.flat();
  }

  /**
   * What payouts can spend: the sum of the address's coin objects of the token. SIP-58 address
   * balances are left out because payouts do not withdraw from them.
   */
  async balance(address: string, token: TokenSpec): Promise<bigint> {
    const coinType = token.contract === null ? SUI_COIN_TYPE : normalizeCoinType(token.contract);
    if (coinType === null) return 0n;
    const coins = await this.coins(normalizeSuiAddress(address), coinType);
    return coins.reduce((sum, c) => sum + c.balance, 0n);
  }

  /** The owner's coins of a type, every page read from one endpoint (page tokens are node-local). */
  private coins(owner: string, coinType: string): Promise<CoinRef[]> {
    return this.rpc.call(async (c, o) => {
      const out: CoinRef[] = [];
      let pageToken: Uint8Array | undefined;
      for (let page = 0; page < MAX_COIN_PAGES; page++) {
        const res = await c.stateService.listOwnedObjects(
          {
            owner,
            objectType: `0x2::coin::Coin<${coinType}>`,
            pageSize: COIN_PAGE_SIZE,
            pageToken,
            readMask: { paths: [...MASKS.coin] },
          },
          o,
        ).response;
        for (const obj of res.objects) {
          if (!obj.objectId || obj.version === undefined || !obj.digest) continue;
          out.push({
            objectId: normalizeSuiAddress(obj.objectId),
            version: obj.version.toString(),
            digest: obj.digest,
            balance: obj.balance ?? 0n,
          });
        }
        if (!res.nextPageToken || res.nextPageToken.length === 0) break;
        pageToken = res.nextPageToken;
      }
      return out;
    });
  }

  private async referenceGasPrice(): Promise<bigint> {
    const { epoch } = await this.rpc.call(
      (c, o) => c.ledgerService.getEpoch({ readMask: { paths: ['reference_gas_price'] } }, o).response,
    );
    if (epoch?.referenceGasPrice === undefined)
      throw new Error(`${this.chain}: the RPC reported no gas price`);
    return epoch.referenceGasPrice;
  }

  /** A pessimistic fee (payoutFeeCeiling at the current reference gas price), in MIST. */
  async payoutFeeEstimate(): Promise<bigint> {
    return payoutFeeCeiling(await this.referenceGasPrice());
  }

  /**
   * The budget for a transaction whose dry run cost `cost` MIST (computation + storage, rebates not
   * counted, as the node checks it): the cost plus 20% plus 1,000 computation units.
   */
  protected gasBudget(cost: bigint, referenceGasPrice: bigint): bigint {
    return cost + (cost * BUDGET_MARGIN_PERCENT) / 100n + referenceGasPrice * BUDGET_OVERHEAD_UNITS;
  }

  /**
   * Object versions used by transactions this process has sent (or tried to) and not seen settle.
   * Bytes that were signed but never given to broadcast cannot be on the network; the engine
   * broadcasts every stored attempt before it signs anything new, so those are covered once stored.
   */
  private busyObjects(): Set<string> {
    const busy = new Set<string>();
    for (const tx of this.known.values()) if (tx.sent) for (const ref of tx.refs) busy.add(objectKey(ref));
    return busy;
  }

  private rememberTransaction(digest: string, signed: SignedTransaction, sent: boolean): void {
    const known = this.known.get(digest);
    if (known) {
      known.sent ||= sent;
      return;
    }
    if (this.known.size >= KNOWN_TX_LIMIT) {
      const oldest = this.known.keys().next().value;
      if (oldest !== undefined) this.known.delete(oldest);
    }
    this.known.set(digest, { ...signed, refs: ownedInputs(signed.bytes), sent });
  }

  /**
   * Builds, dry-runs and signs a payout. Token coins are picked largest first (merged when several)
   * and never pay gas; gas comes from the hot wallet's SUI coins (a SUI payout is split from them).
   * Coins used by a sent transaction of ours that may still execute are left alone, so no object
   * version is ever in two transactions on the network. The budget is the dry run's cost plus a margin.
   * Throws PayoutRejectedError when the payout cannot be paid as things stand (too little of the
   * token or of SUI for gas, or the dry run fails on chain); other errors are worth a retry.
   */
  async signPayout(input: {
    privateKey: Buffer;
    from: string;
    to: string;
    token: TokenSpec;
    amountBase: bigint;
    nonce: number | null;
  }): Promise<SignedPayout> {
    const keypair = Ed25519Keypair.fromSecretKey(new Uint8Array(input.privateKey));
    const sender = normalizeSuiAddress(keypair.toSuiAddress());
    if (sender !== normalizeSuiAddress(input.from))
      throw new Error('The signing key does not match the hot wallet');
    const { token, amountBase: amount } = input;
    if (amount <= 0n) throw new PayoutRejectedError('The payout amount must be positive.');
    const native = token.contract === null;
    const coinType = native ? SUI_COIN_TYPE : normalizeCoinType(token.contract as string);
    if (coinType === null) throw new PayoutRejectedError(`${token.contract} is not a Sui coin type.`);

    const price = await this.referenceGasPrice();
    const ceiling = payoutFeeCeiling(price);
    const busy = this.busyObjects();
    const free = (coins: CoinRef[]) => coins.filter((c) => !busy.has(objectKey(c)));
    const held = (coins: CoinRef[]) => coins.reduce((s, c) => s + c.balance, 0n);

    let tokenCoins: CoinRef[] | null = null;
    if (!native) {
      const all = await this.coins(sender, coinType);
      const pick = selectCoins(free(all), amount);
      if (!pick.enough) {
        if (held(all) < amount) {
          throw new PayoutRejectedError(
            `The hot wallet holds ${formatAmount(held(all), token.decimals)} ${token.symbol} in coins; the payout needs ${formatAmount(amount, token.decimals)}.`,
          );
        }
        if (selectCoins(all, amount).enough)
          throw new Error(
            `${this.chain}: the hot wallet's ${token.symbol} coins are held by a payout in flight`,
          );
        throw new PayoutRejectedError(
          `The hot wallet's ${token.symbol} is spread over more than ${MAX_COINS_PER_TRANSACTION} coins; merge them first.`,
        );
      }
      tokenCoins = pick.coins;
    }

    const allSui = await this.coins(sender, SUI_COIN_TYPE);
    const spend = native ? amount : 0n;
    const gasPick = selectCoins(free(allSui), spend + ceiling);
    const available = gasPick.total - spend;
    const minBudget = price * MIN_BUDGET_UNITS;
    const lacksGas = (have: bigint) =>
      new PayoutRejectedError(
        `The hot wallet ${sender} has too little SUI for this payout: ${formatAmount(have, 9)} SUI in coins, needs ${native ? `${formatAmount(amount, 9)} SUI plus ` : ''}gas (up to ${formatAmount(ceiling, 9)} SUI).`,
      );
    if (gasPick.coins.length === 0 || available < minBudget) {
      if (held(allSui) - spend >= minBudget && held(free(allSui)) < held(allSui))
        throw new Error(`${this.chain}: the hot wallet's SUI coins are held by a payout in flight`);
      throw lacksGas(held(allSui));
    }

    const base = {
      sender,
      to: normalizeSuiAddress(input.to),
      amount,
      tokenCoins,
      gasCoins: gasPick.coins,
      gasPrice: price,
    };
    const dryBudget =
      available < ceiling * DRY_RUN_BUDGET_FACTOR ? available : ceiling * DRY_RUN_BUDGET_FACTOR;
    const draft = await buildPayoutTransaction({ ...base, gasBudget: dryBudget });
    const effects = await this.dryRun(draft);
    const status = effects?.status;
    if (status?.success !== true) {
      const kind = status?.error?.kind;
      const short =
        (kind === EXECUTION_ERROR_KIND.INSUFFICIENT_GAS && dryBudget === available) ||
        (kind === EXECUTION_ERROR_KIND.INSUFFICIENT_COIN_BALANCE && native);
      if (short && held(free(allSui)) < held(allSui))
        throw new Error(`${this.chain}: the hot wallet's SUI coins are held by a payout in flight`);
      if (short) throw lacksGas(held(allSui));
      throw new PayoutRejectedError(`The transfer would fail on chain: ${describeFailure(status)}.`);
    }
    const cost = (effects?.gasUsed?.computationCost ?? 0n) + (effects?.gasUsed?.storageCost ?? 0n);
    let budget = this.gasBudget(cost, price);
    if (budget > available) budget = available;
    if (budget < minBudget) budget = minBudget;

    const bytes = await buildPayoutTransaction({ ...base, gasBudget: budget });
    const { signature } = await keypair.signTransaction(bytes);
    const digest = transactionDigest(bytes);
    this.rememberTransaction(digest, { bytes, signature }, false);
    this.logger.info(
      {
        chain: this.chain,
        txid: digest,
        gasBudget: budget.toString(),
        dryRunCost: cost.toString(),
        tokenCoins: tokenCoins?.length ?? 0,
        gasCoins: gasPick.coins.length,
      },
      'sui payout signed',
    );
    return {
      txHash: digest,
      raw: encodeRaw({ bytes, signature }),
      nonce: null,
      validUntil: null,
      slot: ownedInputs(bytes)
        .map((r) => `${r.objectId}@${r.version}`)
        .join(', '),
      maxFeePerGas: null,
      maxPriorityFeePerGas: null,
    };
  }

  /** SimulateTransaction with checks on; the effects (status and gas used). A refusal of its inputs is thrown. */
  private async dryRun(bytes: Uint8Array) {
    try {
      const res = await this.rpc.call(
        (c, o) =>
          c.transactionExecutionService.simulateTransaction(
            { transaction: { bcs: { value: bytes } }, readMask: { paths: [...MASKS.simulate] } },
            o,
          ).response,
      );
      return res.transaction?.effects;
    } catch (error) {
      if (grpcCode(error) === 'INVALID_ARGUMENT') {
        throw new Error(`${this.chain}: the node refused the dry run: ${(error as Error).message}`);
      }
      throw error;
    }
  }

  /**
   * ExecuteTransaction with the stored bytes and signature. Executing them again is idempotent (the
   * node answers with the first execution's effects), so a lost answer is simply asked again. The
   * node's refusal of the inputs (an object at another version, a bad signature) is permanent for
   * these bytes; transient failures are retried and, when they persist, thrown.
   */
  async broadcast(signed: { raw: string; txHash: string }): Promise<BroadcastResult> {
    let tx: SignedTransaction;
    try {
      tx = decodeRaw(signed.raw);
    } catch {
      return { ok: false, permanent: true, error: 'The stored transaction is not a signed SUI transaction.' };
    }
    this.rememberTransaction(signed.txHash, tx, true);
    try {
      const res = await this.rpc.call(
        (c, o) =>
          c.transactionExecutionService.executeTransaction(
            {
              transaction: { bcs: { value: tx.bytes } },
              signatures: [{ bcs: { value: fromBase64(tx.signature) }, signature: { oneofKind: undefined } }],
              readMask: { paths: [...MASKS.execute] },
            },
            o,
          ).response,
      );
      const digest = res.transaction?.digest;
      if (digest && digest !== signed.txHash)
        throw new Error(`${this.chain}: the node executed ${digest}, not ${signed.txHash}`);
      return { ok: true };
    } catch (error) {
      if (grpcCode(error) === 'INVALID_ARGUMENT')
        return { ok: false, permanent: true, error: (error as Error).message };
      throw error;
    }
  }

  /**
   * Where a transaction stands: unknown (the node has no such digest), pending (executed, so final,
   * but in no checkpoint yet), or mined in a checkpoint with its status.
   */
  async lookup(txHash: string): Promise<PayoutLookup> {
    let tx: Awaited<ReturnType<SuiGrpcClient['ledgerService']['getTransaction']>['response']>['transaction'];
    try {
      ({ transaction: tx } = await this.rpc.call(
        (c, o) =>
          c.ledgerService.getTransaction(
            { digest: txHash, readMask: { paths: [...MASKS.transactionState] } },
            o,
          ).response,
      ));
    } catch (error) {
      if (isNotFound(error)) return { state: 'unknown' };
      throw error;
    }
    this.known.delete(txHash);
    if (tx?.checkpoint === undefined) return { state: 'pending' };
    const block = await this.block(Number(tx.checkpoint));
    if (!block) return { state: 'pending' };
    const success = tx.effects?.status?.success === true;
    return {
      state: 'mined',
      blockNum: block.number,
      blockHash: block.hash,
      timestamp: block.timestamp,
      success,
      ...(success ? {} : { error: describeFailure(tx.effects?.status) }),
    };
  }

  /**
   * A Sui payout's slot is the versions of its owned input objects (gas coin, token coins): the
   * same signed bytes are executed idempotently, and a new transaction may be built only once the
   * old one can never execute. On one pinned endpoint (then again on a second): its digest known
   * means it landed; inputs still at our versions mean it can still execute; an input consumed by
   * another transaction Kassa recorded (same object, same version) proves it never will. An input
   * moved on by a transaction Kassa did not record is unexplained, and the payout is held.
   */
  async judgeSlot(input: {
    from: string;
    attempts: RecordedSpend[];
    recorded: RecordedSpend[];
  }): Promise<SlotVerdict> {
    const decoded = input.attempts.map((a) => ({ txHash: a.txHash, refs: refsOf(a.raw) }));
    if (decoded.some((d) => d.refs === null))
      return { state: 'open', detail: 'a stored transaction is unreadable' };
    const ours = new Set(decoded.flatMap((d) => (d.refs as ObjectRef[]).map(objectKey)));
    const rivals = input.recorded
      .map((r) => ({ txHash: r.txHash, refs: refsOf(r.raw) ?? [] }))
      .filter((r) => r.refs.some((ref) => ours.has(objectKey(ref))));
    const views = await this.rpc.corroborate(async (client, options): Promise<SlotVerdict> => {
      const landed = async () => {
        for (const d of decoded) if (await this.digestKnown(client, options, d.txHash)) return d.txHash;
        return null;
      };
      const first = await landed();
      if (first) return { state: 'landed', txHash: first };
      const moved: ObjectRef[] = [];
      for (const d of decoded)
        moved.push(...(await this.movedInputs(client, options, d.refs as ObjectRef[])));
      if (moved.length === 0)
        return { state: 'open', detail: 'its input objects are still at their versions' };
      let proof: string | null = null;
      for (const rival of rivals) {
        const shared = rival.refs.filter((ref) => moved.some((m) => objectKey(m) === objectKey(ref)));
        if (shared.length > 0 && (await this.digestKnown(client, options, rival.txHash))) {
          proof = `${shared.map(objectKey).join(', ')} consumed by Kassa's transaction ${rival.txHash}`;
          break;
        }
      }
      const late = await landed(); // asked again: the node's view may have moved meanwhile
      if (late) return { state: 'landed', txHash: late };
      if (proof) return { state: 'dead', proof };
      return {
        state: 'unexplained',
        detail: `${moved.map(objectKey).join(', ')} moved on by a transaction Kassa did not record, and ${decoded.map((d) => d.txHash).join(', ')} is unknown`,
      };
    }, needsSecondOpinion);
    const verdict = corroboratedVerdict(views);
    if (verdict.state === 'dead') for (const d of decoded) this.known.delete(d.txHash);
    return verdict;
  }

  private async digestKnown(client: SuiGrpcClient, options: CallOptions, digest: string): Promise<boolean> {
    try {
      await client.ledgerService.getTransaction({ digest, readMask: { paths: ['digest'] } }, options)
        .response;
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  /** The inputs a node holds at a newer version than `refs`, or knows at our version with no live object. */
  private async movedInputs(
    client: SuiGrpcClient,
    options: CallOptions,
    refs: ObjectRef[],
  ): Promise<ObjectRef[]> {
    if (refs.length === 0) return [];
    const { objects } = await client.ledgerService.batchGetObjects(
      {
        requests: refs.map((r) => ({ objectId: r.objectId })),
        readMask: { paths: [...MASKS.objectVersion] },
      },
      options,
    ).response;
    const moved: ObjectRef[] = [];
    for (const [i, ref] of refs.entries()) {
      const result = objects[i]?.result;
      if (result?.oneofKind === 'object') {
        if (result.object.version !== undefined && result.object.version > BigInt(ref.version))
          moved.push(ref);
        continue;
      }
      if (result?.oneofKind === 'error' && result.error.code === 5) {
        try {
          await client.ledgerService.getObject(
            { objectId: ref.objectId, version: BigInt(ref.version), readMask: { paths: ['version'] } },
            options,
          ).response;
          moved.push(ref); // the node had our version and has no live object: it was consumed
        } catch (error) {
          if (!isNotFound(error)) throw error;
        }
      }
    }
    return moved;
  }
}
