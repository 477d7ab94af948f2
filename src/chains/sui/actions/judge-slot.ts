import type { SuiGrpcClient } from '@mysten/sui/grpc';
import type { RecordedSpend, SlotVerdict } from '../../port.ts';
import { corroboratedVerdict, needsSecondOpinion } from '../../slot-verdict.ts';
import type { SuiContext } from '../context.ts';
import { type CallOptions, isNotFound, MASKS } from '../grpc.ts';
import { objectKey, refsOf } from '../known-transactions.ts';
import type { ObjectRef } from '../payout-tx.ts';

/**
 * A Sui payout's slot is the versions of its owned input objects (gas coin, token coins): the
 * same signed bytes are executed idempotently, and a new transaction may be built only once the
 * old one can never execute. On one pinned endpoint (then again on a second): its digest known
 * means it landed; inputs still at our versions mean it can still execute; an input consumed by
 * another transaction Kassa recorded (same object, same version) proves it never will. An input
 * moved on by a transaction Kassa did not record is unexplained, and the payout is held.
 */
export async function judgeSlot(
  ctx: SuiContext,
  input: { from: string; attempts: RecordedSpend[]; recorded: RecordedSpend[] },
): Promise<SlotVerdict> {
  const decoded = input.attempts.map((a) => ({ txHash: a.txHash, refs: refsOf(a.raw) }));
  if (decoded.some((d) => d.refs === null))
    return { state: 'open', detail: 'a stored transaction is unreadable' };
  const ours = new Set(decoded.flatMap((d) => (d.refs as ObjectRef[]).map(objectKey)));
  const rivals = input.recorded
    .map((r) => ({ txHash: r.txHash, refs: refsOf(r.raw) ?? [] }))
    .filter((r) => r.refs.some((ref) => ours.has(objectKey(ref))));
  const views = await ctx.rpc.corroborate(async (client, options): Promise<SlotVerdict> => {
    const landed = async () => {
      for (const d of decoded) if (await digestKnown(client, options, d.txHash)) return d.txHash;
      return null;
    };
    const first = await landed();
    if (first) return { state: 'landed', txHash: first };
    const moved: ObjectRef[] = [];
    for (const d of decoded) moved.push(...(await movedInputs(client, options, d.refs as ObjectRef[])));
    if (moved.length === 0) return { state: 'open', detail: 'its input objects are still at their versions' };
    let proof: string | null = null;
    for (const rival of rivals) {
      const shared = rival.refs.filter((ref) => moved.some((m) => objectKey(m) === objectKey(ref)));
      if (shared.length > 0 && (await digestKnown(client, options, rival.txHash))) {
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
  if (verdict.state === 'dead') for (const d of decoded) ctx.known.delete(d.txHash);
  return verdict;
}

async function digestKnown(client: SuiGrpcClient, options: CallOptions, digest: string): Promise<boolean> {
  try {
    await client.ledgerService.getTransaction({ digest, readMask: { paths: ['digest'] } }, options).response;
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

/** The inputs a node holds at a newer version than `refs`, or knows at our version with no live object. */
async function movedInputs(
  client: SuiGrpcClient,
  options: CallOptions,
  refs: ObjectRef[],
): Promise<ObjectRef[]> {
  if (refs.length === 0) return [];
  const { objects } = await client.ledgerService.batchGetObjects(
    { requests: refs.map((r) => ({ objectId: r.objectId })), readMask: { paths: [...MASKS.objectVersion] } },
    options,
  ).response;
  const moved: ObjectRef[] = [];
  for (const [i, ref] of refs.entries()) {
    const result = objects[i]?.result;
    if (result?.oneofKind === 'object') {
      if (result.object.version !== undefined && result.object.version > BigInt(ref.version)) moved.push(ref);
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
