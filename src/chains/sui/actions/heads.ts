import { headsUnder } from '../../finality.ts';
import type { ChainHeads } from '../../port.ts';
import type { SuiContext } from '../context.ts';

/** Head = the latest checkpoint. `finalized` → final = head (executed and checkpointed); N → head − N + 1. */
export async function heads(ctx: SuiContext): Promise<ChainHeads> {
  const info = await ctx.rpc.call((c, o) => c.ledgerService.getServiceInfo({}, o).response);
  const head = Number(info.checkpointHeight ?? 0n);
  return headsUnder(ctx.settings, head, head);
}
