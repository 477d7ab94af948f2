import type { Deps } from './deps.ts';

/**
 * Forgets a chain's scan checkpoint, for devnet chains that restart empty (the sandbox's fake TRON
 * and Sui nodes): the next scan starts from the chain's new head or its oldest open order.
 */
export async function resetChainCheckpoint(deps: Pick<Deps, 'db'>, chain: string): Promise<void> {
  await deps.db.resetCursor(chain);
}
