import type { RecordedSpend, SlotVerdict } from '../../port.ts';
import { corroboratedVerdict, needsSecondOpinion } from '../../slot-verdict.ts';
import type { TronContext } from '../context.ts';
import { isEmpty } from '../wire.ts';
import { latestBlock } from './latest-block.ts';

/**
 * A transaction counts as unable to land only once the SOLIDIFIED block is this much younger than
 * its expiration: no block that could still change may include it, and a lagging node behind a
 * load balancer has had time to catch up.
 */
const NEVER_LAND_MARGIN_MS = 60_000;

/**
 * A TRON payout's slot is its reference block and expiration: the same signed bytes until then,
 * and a new transaction only once it can never land. On one pinned endpoint (then again on a
 * second): the transaction known in any view means it landed or still may; a node whose
 * SOLIDIFIED block is past the expiration plus a margin and that does not know it proves it never
 * will. Anything short of that is `open`: time, not the operator, settles a TRON slot.
 */
export async function judgeSlot(
  ctx: TronContext,
  input: { from: string; attempts: RecordedSpend[]; recorded: RecordedSpend[] },
): Promise<SlotVerdict> {
  const expiries = input.attempts.map((a) => a.validUntil);
  if (expiries.length === 0 || expiries.some((v) => v === null))
    return { state: 'open', detail: 'a transaction without an expiration' };
  const latest = Math.max(...(expiries as number[]));
  const views = await ctx.http.corroborate(async (call): Promise<SlotVerdict> => {
    for (const a of input.attempts) {
      for (const path of [
        '/walletsolidity/gettransactioninfobyid',
        '/wallet/gettransactioninfobyid',
        '/wallet/gettransactionbyid',
      ]) {
        if (!isEmpty(await call(path, { value: a.txHash }))) return { state: 'landed', txHash: a.txHash };
      }
    }
    const solid = await latestBlock(ctx, { view: 'solid', call });
    if (solid.timestampMs < latest + NEVER_LAND_MARGIN_MS)
      return {
        state: 'open',
        detail: `expires ${new Date(latest).toISOString()}; the solidified block is older`,
      };
    // asked again after the time check: the node's view may have moved between the requests
    for (const a of input.attempts) {
      if (!isEmpty(await call('/walletsolidity/gettransactioninfobyid', { value: a.txHash })))
        return { state: 'landed', txHash: a.txHash };
    }
    return {
      state: 'dead',
      proof: `expired at ${new Date(latest).toISOString()}; the solidified block ${solid.number} (${new Date(solid.timestampMs).toISOString()}) does not contain it`,
    };
  }, needsSecondOpinion);
  return corroboratedVerdict(views);
}
