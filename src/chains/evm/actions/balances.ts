import { type Address, encodeFunctionData, numberToHex } from 'viem';
import type { BalanceRead } from '../../port.ts';
import { type BatchCall, jsonRpcBatchCall } from '../../rpc/json-rpc.ts';
import type { EvmContext } from '../context.ts';
import { ERC20_ABI } from '../erc20.ts';

/** Calls per JSON-RPC batch (providers commonly accept 100 to 1,000). */
export const BALANCE_BATCH_SIZE = 200;
/** Batches in flight at once. */
export const BALANCE_BATCHES_IN_FLIGHT = 4;

/**
 * Many balances at once, all as of one block (`atHeight`, or the latest when null): `eth_getBalance`
 * and ERC-20 `balanceOf` calls sent as JSON-RPC batches of BALANCE_BATCH_SIZE, a few batches in
 * flight, each batch through the chain's fail-over endpoints. Answers in the order of `reads`.
 * Throws what a call throws (a JsonRpcError when the node refuses, e.g. state of an old block pruned).
 */
export async function balances(
  ctx: EvmContext,
  args: { reads: BalanceRead[]; atHeight: number | null },
): Promise<bigint[]> {
  const tag = args.atHeight === null ? 'latest' : numberToHex(args.atHeight);
  const calls: BatchCall[] = args.reads.map(({ address, token }) =>
    token.contract === null
      ? { method: 'eth_getBalance', params: [address, tag] }
      : {
          method: 'eth_call',
          params: [
            {
              to: token.contract,
              data: encodeFunctionData({
                abi: ERC20_ABI,
                functionName: 'balanceOf',
                args: [address as Address],
              }),
            },
            tag,
          ],
        },
  );
  const out = new Array<bigint>(calls.length);
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const start = next;
      next += BALANCE_BATCH_SIZE;
      const batch = calls.slice(start, start + BALANCE_BATCH_SIZE);
      const answers = await ctx.endpoints.request((url, signal) => jsonRpcBatchCall(url, batch, signal));
      answers.forEach((answer, i) => {
        // balanceOf of an address that is no contract answers 0x: nothing there.
        out[start + i] = typeof answer === 'string' && answer !== '0x' ? BigInt(answer) : 0n;
      });
    }
  };
  await Promise.all(Array.from({ length: BALANCE_BATCHES_IN_FLIGHT }, worker));
  return out;
}
