import { ChainError } from '../../errors.ts';
import type { SuiContext } from '../context.ts';
import { grpcCode, MASKS } from '../grpc.ts';

/** SimulateTransaction with checks on; the effects (status and gas used). A refusal of its inputs is thrown. */
export async function dryRun(ctx: SuiContext, args: { bytes: Uint8Array }) {
  try {
    const res = await ctx.rpc.call(
      (c, o) =>
        c.transactionExecutionService.simulateTransaction(
          { transaction: { bcs: { value: args.bytes } }, readMask: { paths: [...MASKS.simulate] } },
          o,
        ).response,
    );
    return res.transaction?.effects;
  } catch (error) {
    if (grpcCode(error) === 'INVALID_ARGUMENT') {
      throw new ChainError(
        'node_error',
        `${ctx.chain}: the node refused the dry run: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}
