import type { Deps } from './deps.ts';

/** Deletes nonces that can no longer be replayed (their timestamp window has passed). */
export async function pruneRequestNonces(deps: Pick<Deps, 'db' | 'clock'>): Promise<{ pruned: number }> {
  return { pruned: await deps.db.pruneNonces(deps.clock.now()) };
}
