/** Resolves on a later turn of the event loop, so a long read lets waiting requests run first. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
