import { mapLimit } from '../../../lib/map-limit.ts';
import { ChainError } from '../../errors.ts';
import type { ObservedTransfer, TokenSpec } from '../../port.ts';
import { toHex20 } from '../address.ts';
import type { TronContext } from '../context.ts';
import type { NodeJson } from '../http.ts';
import {
  assertInfosMatch,
  header,
  nativeTransfers,
  needsInfos,
  tokenTransfers,
  type Watch,
} from '../wire.ts';

/**
 * Blocks per scan step (lowered by the chain's `maxLogRange` setting): one getblockbylimitnext per
 * BLOCKS_PER_REQUEST blocks, one TransactionInfo request per block that has contract calls.
 */
const SCAN_STEP = 200;
/** getblockbylimitnext allows 100; fewer keeps a response of busy mainnet blocks to a few MB. */
const BLOCKS_PER_REQUEST = 50;
const BLOCK_REQUESTS_IN_FLIGHT = 4;
const INFO_REQUESTS_IN_FLIGHT = 8;

/** The largest range a scan is asked for: 200 blocks, or the chain's `maxLogRange` when lower. */
export function scanStep(ctx: TronContext): number {
  return Math.max(1, Math.min(SCAN_STEP, ctx.settings.maxLogRange));
}

/**
 * Deposits in blocks [from, to]: TRX TransferContract transactions and TRC-20 Transfer logs (from
 * each block's TransactionInfo) to watched addresses, for the configured tokens. The blocks must
 * link up: a fork while reading throws ChainError `chain_moved` and the step is read again.
 */
export async function scan(
  ctx: TronContext,
  args: { from: number; to: number; addresses: ReadonlySet<string>; tokens: TokenSpec[] },
): Promise<ObservedTransfer[]> {
  const { from, to } = args;
  if (from > to) return [];
  const watch = watchOf(ctx, args.addresses, args.tokens);
  if (watch.addresses.size === 0 || (watch.tokens.size === 0 && !watch.native)) return [];
  const chunks: [number, number][] = [];
  for (let a = from; a <= to; a += BLOCKS_PER_REQUEST)
    chunks.push([a, Math.min(to, a + BLOCKS_PER_REQUEST - 1)]);
  const blocks = (await mapLimit(chunks, BLOCK_REQUESTS_IN_FLIGHT, ([a, b]) => blockRange(ctx, a, b))).flat();
  for (let i = 1; i < blocks.length; i++) {
    if (header(blocks[i]).parentId !== header(blocks[i - 1]).id) {
      throw new ChainError(
        'chain_moved',
        `blocks ${from}..${to} do not link up (a fork while reading); read again later`,
      );
    }
  }
  // the engine checks the end block before and after the scan, and that its checkpoint is still there
  const out: ObservedTransfer[] = [];
  for (const block of blocks) out.push(...nativeTransfers(block, watch));
  if (watch.tokens.size > 0) {
    const withCalls = blocks.filter(needsInfos);
    const found = await mapLimit(withCalls, INFO_REQUESTS_IN_FLIGHT, async (block) => {
      const infos = await ctx.http.call('/wallet/gettransactioninfobyblocknum', {
        num: header(block).number,
      });
      assertInfosMatch(block, infos);
      return tokenTransfers(block, infos, watch);
    });
    out.push(...found.flat());
  }
  return out;
}

/** Blocks [first, last] in order, checked to be consecutive; throws when any is missing. */
async function blockRange(ctx: TronContext, first: number, last: number): Promise<NodeJson[]> {
  const json = await ctx.http.call('/wallet/getblockbylimitnext', { startNum: first, endNum: last + 1 });
  const blocks: NodeJson[] = Array.isArray(json?.block) ? json.block : [];
  if (blocks.length !== last - first + 1 || blocks.some((b, i) => header(b).number !== first + i)) {
    throw new ChainError(
      'chain_moved',
      `blocks ${first}..${last} are not all there (the chain got shorter: a fork?); read again later`,
    );
  }
  return blocks;
}

/** A watched address as 20-byte hex (cached); undefined, with a warning, when it is not a TRON address. */
function hex20(ctx: TronContext, address: string): string | undefined {
  let hex = ctx.hexCache.get(address);
  if (hex === undefined) {
    try {
      hex = toHex20(address);
    } catch {
      ctx.logger.warn({ address }, 'watched address is not a TRON address; ignored');
      return undefined;
    }
    ctx.hexCache.set(address, hex);
  }
  return hex;
}

function watchOf(ctx: TronContext, addresses: ReadonlySet<string>, tokens: TokenSpec[]): Watch {
  const watched = new Map<string, string>();
  for (const a of addresses) {
    const hex = hex20(ctx, a);
    if (hex !== undefined) watched.set(hex, a);
  }
  const contracts = new Map<string, string>();
  for (const t of tokens) {
    if (t.contract === null) continue;
    const hex = hex20(ctx, t.contract);
    if (hex !== undefined) contracts.set(hex, t.contract);
  }
  return { addresses: watched, tokens: contracts, native: tokens.some((t) => t.contract === null) };
}
