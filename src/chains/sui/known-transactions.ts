import type { SuiContext } from './context.ts';
import { decodeRaw, type ObjectRef, ownedInputs, type SignedTransaction } from './payout-tx.ts';

/** Signed transactions remembered to keep their coins out of new payouts while they may execute. */
const KNOWN_TX_LIMIT = 1000;

/** An object at a version, as one key: `0xid@version`. */
export const objectKey = (ref: { objectId: string; version: string }) => `${ref.objectId}@${ref.version}`;

/** The owned inputs of a stored transaction, or null when it cannot be read. */
export function refsOf(raw: string): ObjectRef[] | null {
  try {
    return ownedInputs(decodeRaw(raw).bytes);
  } catch {
    return null;
  }
}

/**
 * Object versions used by transactions this process has sent (or tried to) and not seen settle.
 * Bytes that were signed but never given to broadcast cannot be on the network; the engine
 * broadcasts every stored attempt before it signs anything new, so those are covered once stored.
 */
export function busyObjects(ctx: SuiContext): Set<string> {
  const busy = new Set<string>();
  for (const tx of ctx.known.values()) if (tx.sent) for (const ref of tx.refs) busy.add(objectKey(ref));
  return busy;
}

/** Remembers a signed transaction (marked sent once given to broadcast); the oldest go past the limit. */
export function rememberTransaction(
  ctx: SuiContext,
  digest: string,
  signed: SignedTransaction,
  sent: boolean,
): void {
  const known = ctx.known.get(digest);
  if (known) {
    known.sent ||= sent;
    return;
  }
  if (ctx.known.size >= KNOWN_TX_LIMIT) {
    const oldest = ctx.known.keys().next().value;
    if (oldest !== undefined) ctx.known.delete(oldest);
  }
  ctx.known.set(digest, { ...signed, refs: ownedInputs(signed.bytes), sent });
}
