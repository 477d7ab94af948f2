import type { ChainStatus } from '../chains/health.ts';
import { activeChain } from '../config/active-chain.ts';
import type { Config } from '../config/schema.ts';
import type { CursorTimes } from '../db/store.ts';
import { CHAINS, type Chain } from '../domain/chains.ts';
import type { Deps } from './deps.ts';

/** Where a chain's scanner stands, and whether it is within its lag budget. */
export interface ChainProgress {
  chain: Chain;
  /**
   * `worker`: the scanner runs in this process and reports its state; `checkpoint`: it runs in
   * another process and is judged from the checkpoint it writes to the database.
   */
  source: 'worker' | 'checkpoint';
  /** The in-process scanner's connection state; null when judged from the checkpoint. */
  state: ChainStatus['state'] | null;
  /** Chain head at the scanner's last pass; null when unknown (checkpoint source, or not connected). */
  head: number | null;
  /** Last block whose transfers are all stored. */
  scannedTo: number | null;
  finalHeight: number | null;
  /** head − scannedTo; null when the head is unknown. */
  lagBlocks: number | null;
  /** How far the scan trails the chain: 0 at the head, else now − time of the block at scannedTo. */
  lagSeconds: number | null;
  /** Seconds since the scanner last finished a pass (worker) or wrote its checkpoint (checkpoint). */
  lastScanAgeSeconds: number | null;
  budgetSeconds: number;
  lastError: string | null;
  ready: boolean;
  /** Why the chain is not ready; null when it is. */
  problem: string | null;
}

/**
 * A chain's lag budget in seconds: its `lagBudgetSeconds` when set, else `ops.lagBudget.pollIntervals`
 * poll intervals + one block time (the poll interval when no block time is configured) +
 * `ops.lagBudget.slackSeconds`. With the defaults: ETH 3×12 + 12 + 30 = 78 s, SUI 3×1 + 0.25 + 30.
 */
export function lagBudgetSeconds(config: Config, chain: Chain): number {
  const settings = config.chains[chain];
  if (settings.lagBudgetSeconds !== undefined) return settings.lagBudgetSeconds;
  const { pollIntervals, slackSeconds } = config.ops.lagBudget;
  const blockMs = settings.blockTimeMs ?? settings.pollIntervalMs;
  return round((pollIntervals * settings.pollIntervalMs + blockMs) / 1000 + slackSeconds);
}

function round(seconds: number): number {
  return Math.round(seconds * 10) / 10;
}

function ageSeconds(now: number, thenMs: number): number {
  return round(Math.max(0, now - thenMs) / 1000);
}

function fromWorker(
  chain: Chain,
  status: ChainStatus,
  cursor: CursorTimes | undefined,
  budget: number,
  now: number,
): ChainProgress {
  const scannedTo = cursor?.height ?? status.scannedTo;
  const head = status.head;
  const lagBlocks = head !== null && scannedTo !== null ? Math.max(0, head - scannedTo) : null;
  const lagSeconds =
    lagBlocks === 0 ? 0 : cursor && cursor.heightTime > 0 ? ageSeconds(now, cursor.heightTime * 1000) : null;
  const lastScanAgeSeconds = status.lastScanAt === null ? null : ageSeconds(now, status.lastScanAt);
  let problem: string | null = null;
  if (status.state !== 'ready') {
    problem = `${status.state}${status.lastError ? `: ${status.lastError}` : ''}`;
  } else if (lastScanAgeSeconds === null) {
    problem = 'the first scan has not finished yet (catching up)';
  } else if (lastScanAgeSeconds > budget) {
    problem = `the last scan finished ${lastScanAgeSeconds} s ago (budget ${budget} s)`;
  } else if (lagSeconds === null || lagSeconds > budget) {
    problem = `${lagBlocks ?? '?'} blocks (${lagSeconds ?? '?'} s) behind the head (budget ${budget} s)`;
  }
  return {
    chain,
    source: 'worker',
    state: status.state,
    head,
    scannedTo,
    finalHeight: status.final ?? cursor?.finalHeight ?? null,
    lagBlocks,
    lagSeconds,
    lastScanAgeSeconds,
    budgetSeconds: budget,
    lastError: status.lastError,
    ready: problem === null,
    problem,
  };
}

function fromCheckpoint(
  chain: Chain,
  cursor: CursorTimes | undefined,
  budget: number,
  now: number,
): ChainProgress {
  const base = {
    chain,
    source: 'checkpoint' as const,
    state: null,
    head: null,
    lagBlocks: null,
    budgetSeconds: budget,
    lastError: null,
  };
  if (!cursor) {
    return {
      ...base,
      scannedTo: null,
      finalHeight: null,
      lagSeconds: null,
      lastScanAgeSeconds: null,
      ready: false,
      problem: 'no checkpoint yet: is `kassa worker` running and its RPC reachable?',
    };
  }
  const lagSeconds = cursor.heightTime > 0 ? ageSeconds(now, cursor.heightTime * 1000) : null;
  const lastScanAgeSeconds = ageSeconds(now, cursor.updatedAt);
  let problem: string | null = null;
  if (lastScanAgeSeconds > budget) {
    problem = `the worker last advanced the checkpoint ${lastScanAgeSeconds} s ago (budget ${budget} s)`;
  } else if (lagSeconds === null || lagSeconds > budget) {
    problem = `the last scanned block is ${lagSeconds ?? '?'} s old (budget ${budget} s)`;
  }
  return {
    ...base,
    scannedTo: cursor.height,
    finalHeight: cursor.finalHeight,
    lagSeconds,
    lastScanAgeSeconds,
    ready: problem === null,
    problem,
  };
}

/**
 * Progress of every chain enabled in the configuration (a chain with RPC URLs on the network),
 * judged from the in-process worker when it watches that chain, else from the checkpoint in the
 * database. Reads only; never throws for a chain that has not started.
 */
export async function chainProgress(
  deps: Pick<Deps, 'config' | 'db' | 'clock' | 'health'>,
): Promise<ChainProgress[]> {
  const now = deps.clock.now();
  const cursors = new Map((await deps.db.cursorTimes()).map((c) => [c.chain, c]));
  const statuses = new Map(deps.health.all().map((s) => [s.chain, s]));
  const out: ChainProgress[] = [];
  for (const chain of CHAINS) {
    if (!activeChain(deps.config, chain).enabled) continue;
    const budget = lagBudgetSeconds(deps.config, chain);
    const status = statuses.get(chain);
    out.push(
      status
        ? fromWorker(chain, status, cursors.get(chain), budget, now)
        : fromCheckpoint(chain, cursors.get(chain), budget, now),
    );
  }
  return out;
}
