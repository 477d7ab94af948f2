import { CHAINS, type Chain, isChain } from '../domain/chains.ts';
import { AppError } from '../domain/errors.ts';
import type { Deps } from './deps.ts';

const KEY = 'payouts.paused';

/** Chains whose payouts are paused (`kassa payouts pause`): nothing new is signed there until resumed. */
export async function pausedChains(deps: Pick<Deps, 'db'>): Promise<Set<Chain>> {
  const raw = await deps.db.getSetting(KEY);
  if (!raw) return new Set();
  return new Set((JSON.parse(raw) as string[]).filter(isChain));
}

function chainsOf(chain: string | undefined): Chain[] {
  if (chain === undefined) return [...CHAINS];
  if (!isChain(chain)) throw new AppError('validation', `Unknown chain ${chain}.`);
  return [chain];
}

/**
 * Pauses payout signing on one chain or all: payouts are still accepted and queued, transactions
 * already signed are still sent and followed, but nothing new is signed (no new payout, no
 * re-priced replacement) until `resumePayouts`. Takes effect on the worker's next pass. Returns the
 * chains paused now.
 */
export async function pausePayouts(deps: Pick<Deps, 'db' | 'logger'>, chain?: string): Promise<Chain[]> {
  const paused = await pausedChains(deps);
  for (const c of chainsOf(chain)) paused.add(c);
  const list = CHAINS.filter((c) => paused.has(c));
  await deps.db.setSetting(KEY, JSON.stringify(list));
  deps.logger.warn({ chains: chain ?? 'all' }, 'payout signing paused');
  return list;
}

/** Resumes payout signing on one chain or all; returns the chains still paused. */
export async function resumePayouts(deps: Pick<Deps, 'db' | 'logger'>, chain?: string): Promise<Chain[]> {
  const paused = await pausedChains(deps);
  for (const c of chainsOf(chain)) paused.delete(c);
  const list = CHAINS.filter((c) => paused.has(c));
  await deps.db.setSetting(KEY, JSON.stringify(list));
  deps.logger.info({ chains: chain ?? 'all' }, 'payout signing resumed');
  return list;
}
