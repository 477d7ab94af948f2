import type { ActiveChain } from '../../config/active-chain.ts';
import type { Chain } from '../../domain/chains.ts';
import type { Logger } from '../../lib/logger.ts';
import type { BlockRef } from '../port.ts';
import { checkEndpoint } from './actions/check-endpoint.ts';
import { SuiRpc } from './grpc.ts';
import type { ObjectRef, SignedTransaction } from './payout-tx.ts';

/** Computation units added on top of the dry run's cost (what the SDK adds as its safe overhead). */
const BUDGET_OVERHEAD_UNITS = 1_000n;
/** Percent added to the dry run's computation + storage cost. */
const BUDGET_MARGIN_PERCENT = 20n;
/** Checkpoint references kept in memory (checkpoints never change once sealed). */
const BLOCK_CACHE_SIZE = 4096;

/**
 * The budget for a transaction whose dry run cost `cost` MIST (computation + storage, rebates not
 * counted, as the node checks it): the cost plus 20% plus 1,000 computation units.
 */
export function defaultGasBudget(cost: bigint, referenceGasPrice: bigint): bigint {
  return cost + (cost * BUDGET_MARGIN_PERCENT) / 100n + referenceGasPrice * BUDGET_OVERHEAD_UNITS;
}

export interface SuiOptions {
  timeoutMs?: number;
  /** First back-off delay of the RPC fail-over (tests shorten it). */
  baseDelayMs?: number;
  /** The gas budget policy (defaultGasBudget; a test may under-budget on purpose). */
  gasBudget?: (cost: bigint, referenceGasPrice: bigint) => bigint;
}

/** A transaction this process signed, with the object versions it spends. */
export interface KnownTransaction extends SignedTransaction {
  refs: ObjectRef[];
  /** Given to broadcast at least once, so it may be on the network. */
  sent: boolean;
}

/** What every SUI action works with: settings, the gRPC endpoints, checkpoint and transaction memory. */
export interface SuiContext {
  readonly chain: Chain;
  readonly settings: ActiveChain;
  readonly logger: Logger;
  readonly rpc: SuiRpc;
  /** Checkpoint references by sequence number (sealed checkpoints never change). */
  readonly blocks: Map<number, BlockRef>;
  /** Signed transactions whose coins must stay out of new payouts while they may execute. */
  readonly known: Map<string, KnownTransaction>;
  readonly gasBudget: (cost: bigint, referenceGasPrice: bigint) => bigint;
}

/** Builds the context of the SUI chain (no network I/O). */
export function createSuiContext(
  settings: ActiveChain,
  logger: Logger,
  options: SuiOptions = {},
): SuiContext {
  const identity = { chain: settings.chain, chainId: null as string | null };
  const rpc: SuiRpc = new SuiRpc(settings.rpc, logger, {
    timeoutMs: options.timeoutMs,
    baseDelayMs: options.baseDelayMs,
    check: (url, signal) => checkEndpoint(identity, rpc, url, signal),
  });
  return {
    chain: settings.chain,
    settings,
    logger,
    rpc,
    blocks: new Map(),
    known: new Map(),
    gasBudget: options.gasBudget ?? defaultGasBudget,
  };
}

/** Keeps a checkpoint reference (the oldest is dropped past BLOCK_CACHE_SIZE); returns it. */
export function rememberBlock(ctx: SuiContext, ref: BlockRef): BlockRef {
  if (ctx.blocks.size >= BLOCK_CACHE_SIZE) {
    const oldest = ctx.blocks.keys().next().value;
    if (oldest !== undefined) ctx.blocks.delete(oldest);
  }
  ctx.blocks.set(ref.number, ref);
  return ref;
}
