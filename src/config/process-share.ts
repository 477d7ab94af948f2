import type { Config } from './schema.ts';

/**
 * The part of a rate limit one API process enforces: ceil(limit / api.processes). Limits are
 * counted in each process's memory, so with N processes behind one load balancer each admits its
 * share, and together they admit at most limit + N − 1 per window (never 0 in one process).
 */
export function processShare(config: Pick<Config, 'api'>, limit: number): number {
  return Math.ceil(limit / config.api.processes);
}
