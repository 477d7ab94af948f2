import type { Address, EIP1193RequestFn, Hash, Hex } from 'viem';
import { numberToHex } from 'viem';
import { getBlock, getBlockNumber } from 'viem/actions';
import type { AnyClient } from './tokens.ts';

/**
 * A transaction to include in the replacement blocks, at `blockOffset` (0 = the first new block, at
 * most depth − 1). `hash` re-includes a transaction from the blocks being replaced (its raw bytes are
 * fetched first), so it moves to another block with another block hash; `raw` is a signed transaction;
 * `request` is sent from an account anvil can sign for.
 */
export type ReorgTransaction =
  | { hash: Hash; blockOffset: number }
  | { raw: Hex; blockOffset: number }
  | {
      request: { from: Address; to?: Address; value?: bigint; data?: Hex; gas?: bigint };
      blockOffset: number;
    };

export interface ReorgResult {
  /** Head block number, the same before and after: the chain is as long, its last `depth` blocks new. */
  head: bigint;
  /** Each replaced height with the hash it had and the hash it has now (always different). */
  replaced: { number: bigint; oldHash: Hash; newHash: Hash }[];
}

type AnvilReorgSchema = [
  { Method: 'anvil_reorg'; Parameters: [number, [Hex | Record<string, Hex>, number][]]; ReturnType: null },
  { Method: 'anvil_rollback'; Parameters: [number]; ReturnType: null },
  { Method: 'eth_getRawTransactionByHash'; Parameters: [Hash]; ReturnType: Hex | null },
];

function rpc(client: AnyClient) {
  return client.request as unknown as EIP1193RequestFn<AnvilReorgSchema>;
}

/**
 * Simulates a chain reorganisation on anvil: the last `depth` blocks are replaced by as many new blocks
 * (new hashes, same height), empty except for `transactions`. Transactions of the replaced blocks are
 * dropped, not returned to the mempool, so their logs vanish from `eth_getLogs` unless re-included.
 *
 * Uses anvil 1.7.1's `anvil_reorg` with positional params `[depth, [[tx, blockOffset], …]]`, depth a JSON
 * number (a hex string or an options object is refused), tx a raw signed transaction (hex) or a
 * transaction request object. The alternatives are `anvil_rollback [depth]` ({@link rollback}: the chain
 * gets shorter) and `evm_snapshot`/`evm_revert` then mining (the head moves back first).
 *
 * Throws a RangeError if depth is not an integer ≥ 1 and ≤ the head, or an offset is outside
 * [0, depth − 1]; throws if a block kept its hash (the reorg did not happen).
 */
export async function reorg(
  client: AnyClient,
  depth: number,
  options: { transactions?: ReorgTransaction[] } = {},
): Promise<ReorgResult> {
  const head = await getBlockNumber(client, { cacheTime: 0 });
  if (!Number.isInteger(depth) || depth < 1 || BigInt(depth) > head) {
    throw new RangeError(`reorg depth must be an integer from 1 to the head (${head}), got ${depth}`);
  }
  const pairs: [Hex | Record<string, Hex>, number][] = [];
  for (const tx of options.transactions ?? []) {
    if (!Number.isInteger(tx.blockOffset) || tx.blockOffset < 0 || tx.blockOffset >= depth) {
      throw new RangeError(`blockOffset must be an integer from 0 to ${depth - 1}, got ${tx.blockOffset}`);
    }
    pairs.push([await transactionData(client, tx), tx.blockOffset]);
  }
  const numbers = Array.from({ length: depth }, (_, i) => head - BigInt(depth - 1 - i));
  const hashesAt = () =>
    Promise.all(numbers.map(async (blockNumber) => (await getBlock(client, { blockNumber })).hash));
  const oldHashes = await hashesAt();
  await rpc(client)({ method: 'anvil_reorg', params: [depth, pairs] });
  const newHashes = await hashesAt();
  const replaced = numbers.map((number, i) => ({ number, oldHash: oldHashes[i]!, newHash: newHashes[i]! }));
  const kept = replaced.find((block) => block.oldHash === block.newHash);
  if (kept) throw new Error(`anvil_reorg left block ${kept.number} unchanged`);
  return { head, replaced };
}

/**
 * Removes the last `depth` blocks with `anvil_rollback [depth]` (params verified on anvil 1.7.1); the head
 * moves back and their transactions are dropped. Resolves to the new head. Throws a RangeError if depth is
 * not an integer from 1 to the head.
 */
export async function rollback(client: AnyClient, depth: number): Promise<bigint> {
  const head = await getBlockNumber(client, { cacheTime: 0 });
  if (!Number.isInteger(depth) || depth < 1 || BigInt(depth) > head) {
    throw new RangeError(`rollback depth must be an integer from 1 to the head (${head}), got ${depth}`);
  }
  await rpc(client)({ method: 'anvil_rollback', params: [depth] });
  return getBlockNumber(client, { cacheTime: 0 });
}

async function transactionData(client: AnyClient, tx: ReorgTransaction): Promise<Hex | Record<string, Hex>> {
  if ('raw' in tx) return tx.raw;
  if ('hash' in tx) {
    const raw = await rpc(client)({ method: 'eth_getRawTransactionByHash', params: [tx.hash] });
    if (!raw) throw new Error(`transaction ${tx.hash} not found; re-include it before it is reorged away`);
    return raw;
  }
  const { from, to, value, data, gas } = tx.request;
  return {
    from,
    ...(to === undefined ? {} : { to }),
    ...(value === undefined ? {} : { value: numberToHex(value) }),
    ...(data === undefined ? {} : { input: data }),
    ...(gas === undefined ? {} : { gas: numberToHex(gas) }),
  };
}
