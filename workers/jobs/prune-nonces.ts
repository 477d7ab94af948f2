import type { Deps } from '../../src/services/deps.ts';
import { pruneRequestNonces } from '../../src/services/prune-request-nonces.ts';

/** Forgets request nonces older than the timestamp window. */
export function pruneNoncesJob(deps: Deps) {
  return async () => pruneRequestNonces(deps);
}
