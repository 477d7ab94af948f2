/** Every message along an error's `cause` chain (viem nests the node's answer), as one text. */
export function messagesOf(error: unknown): string {
  const parts: string[] = [];
  let e: unknown = error;
  for (let i = 0; e && i < 8; i++) {
    const err = e as { shortMessage?: string; message?: string; details?: string; cause?: unknown };
    parts.push(err.shortMessage ?? '', err.details ?? '', err.message ?? '');
    e = err.cause;
  }
  return parts.join(' | ');
}

/** Whether an error says the EVM reverted the call (as opposed to an RPC or network failure). */
export function isRevert(error: unknown): boolean {
  return /execution reverted|reverted|revert/i.test(messagesOf(error));
}

/** Whether an error says the node has no such block, receipt or transaction. */
export function isNotFound(error: unknown): boolean {
  return /not found|could not be found/i.test(messagesOf(error));
}

/** The first line of an error's short message, for reasons a person reads. */
export function firstLine(error: unknown): string {
  const e = error as { shortMessage?: string; message?: string };
  return (e.shortMessage ?? e.message ?? String(error)).split('\n')[0] ?? 'unknown error';
}
