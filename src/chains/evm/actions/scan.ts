import { type Address, getAddress, type Hex } from 'viem';
import { mapLimit } from '../../../lib/map-limit.ts';
import type { BlockRef, ObservedTransfer, TokenSpec } from '../../port.ts';
import type { EvmContext } from '../context.ts';
import { TRANSFER_EVENT } from '../erc20.ts';
import { isRangeError } from '../log-range.ts';
import { block } from './block.ts';
import { nativeTransfers } from './native-transfers.ts';

type TransferLog = {
  address: Address;
  blockNumber: bigint;
  blockHash: Hex;
  transactionHash: Hex;
  logIndex: number;
  blockTimestamp?: bigint | null;
  args: { from: Address; to: Address; value: bigint };
};

/** Recipients per eth_getLogs `to` filter; larger sets are split. */
const ADDRESSES_PER_QUERY = 200;

/**
 * Incoming transfers in blocks [from, to] to `addresses`: ERC-20 Transfer logs of the configured
 * contracts (eth_getLogs filtered on the recipient, the range halved while the provider refuses
 * it), and native-coin transfers when a token without a contract is asked for. A log whose block
 * changed while it was read is left out: the engine sees the end block move and reads the step again.
 */
export async function scan(
  ctx: EvmContext,
  args: { from: number; to: number; addresses: ReadonlySet<string>; tokens: TokenSpec[] },
): Promise<ObservedTransfer[]> {
  const { from, to, addresses, tokens } = args;
  if (addresses.size === 0 || from > to) return [];
  const contracts = tokens.filter((t) => t.contract !== null).map((t) => getAddress(t.contract as string));
  const out: ObservedTransfer[] = [];
  const blocks = new Map<number, Promise<BlockRef | null>>();
  const blockOf = (n: number) => {
    let p = blocks.get(n);
    if (!p) {
      p = block(ctx, { height: n });
      blocks.set(n, p);
    }
    return p;
  };
  if (contracts.length > 0) {
    const recipients = [...addresses] as Address[];
    for (let i = 0; i < recipients.length; i += ADDRESSES_PER_QUERY) {
      const chunk = recipients.slice(i, i + ADDRESSES_PER_QUERY);
      const logs = await logsInRange(ctx, from, to, contracts, chunk);
      // Newer nodes put the block time on each log; otherwise read each block once.
      const untimed = [
        ...new Set(logs.filter((l) => l.blockTimestamp == null).map((l) => Number(l.blockNumber))),
      ];
      await mapLimit(untimed, 8, (h) => blockOf(h));
      for (const log of logs) {
        let timestamp = log.blockTimestamp == null ? null : Number(log.blockTimestamp);
        if (timestamp === null) {
          const ref = await blockOf(Number(log.blockNumber));
          if (!ref || ref.hash !== log.blockHash) continue; // the block changed under us: the step is retried
          timestamp = ref.timestamp;
        }
        out.push({
          txid: log.transactionHash,
          eventKey: String(log.logIndex),
          blockNum: Number(log.blockNumber),
          blockHash: log.blockHash,
          timestamp,
          from: getAddress(log.args.from),
          to: getAddress(log.args.to),
          contract: getAddress(log.address),
          amountBase: log.args.value,
          success: true,
        });
      }
    }
  }
  if (tokens.some((t) => t.contract === null))
    out.push(...(await nativeTransfers(ctx, { from, to, addresses })));
  return out;
}

/** eth_getLogs over [from, to], split in halves while the provider refuses the range. */
async function logsInRange(
  ctx: EvmContext,
  from: number,
  to: number,
  contracts: Address[],
  recipients: Address[],
): Promise<TransferLog[]> {
  try {
    const logs = await ctx.client.getLogs({
      address: contracts,
      event: TRANSFER_EVENT,
      args: { to: recipients },
      fromBlock: BigInt(from),
      toBlock: BigInt(to),
      strict: true,
    });
    ctx.logRange.succeeded();
    return logs as TransferLog[];
  } catch (error) {
    if (!isRangeError(error) || from === to) throw error;
    const step = ctx.logRange.refused(to - from + 1);
    ctx.logger.info({ chain: ctx.chain, from, to, step }, 'eth_getLogs range refused; shrinking');
    const mid = from + Math.floor((to - from) / 2);
    return [
      ...(await logsInRange(ctx, from, mid, contracts, recipients)),
      ...(await logsInRange(ctx, mid + 1, to, contracts, recipients)),
    ];
  }
}
