import type { ChainAdapter } from '../../chains/port.ts';
import type { Deps } from '../deps.ts';
import type { TokenRef } from '../payout-funding.ts';
import { initialCursor } from './initial-cursor.ts';
import { scanStep } from './scan-step.ts';
import { settle } from './settle.ts';
import { verifyCheckpoint } from './verify-checkpoint.ts';

/** What one pass did, as the worker's job reports it. */
export interface ScanSummary {
  head: number;
  final: number;
  scannedTo: number;
  blocks: number;
  transfers: number;
  transitions: number;
  reorg: boolean;
}

/** How often a long catch-up says how far it is. */
const PROGRESS_EVERY_MS = 2000;

/**
 * One scan pass of a chain: proves the checkpoint is still on the canonical chain (verify-checkpoint:
 * after a reorganisation it goes back to the fork, what vanished is looked up again or orphaned),
 * scans forward to the head in steps (scan-step: each written atomically with its transfers, order
 * transitions, webhook events, the new checkpoint and the hashes of the blocks it read before they
 * were final), then promotes transfers that became final and refreshes confirmations (settle).
 * Safe to run again at any point, or to stop at any point (a killed worker): every write is keyed
 * and guarded. Times come from the injected clock.
 */
export async function scanChain(
  deps: Pick<Deps, 'db' | 'clock' | 'logger'>,
  adapter: ChainAdapter,
  tokens: TokenRef[],
  signal: AbortSignal,
): Promise<ScanSummary> {
  const chain = adapter.chain;
  const heads = await adapter.heads();
  const stored = (await deps.db.getCursor(chain)) ?? (await initialCursor(deps, adapter, heads));
  const verified = await verifyCheckpoint(deps, adapter, tokens, heads, stored);
  let cursor = verified.cursor;
  const summary: ScanSummary = {
    head: heads.head,
    final: heads.final,
    scannedTo: cursor.height,
    blocks: 0,
    transfers: 0,
    transitions: 0,
    reorg: verified.reorg !== null,
  };
  const started = deps.clock.now();
  let lastProgress = started;
  const startHeight = cursor.height;
  while (cursor.height < heads.head && !signal.aborted) {
    const from = cursor.height + 1;
    const to = Math.min(heads.head, cursor.height + adapter.scanStep());
    const step = await scanStep(deps, adapter, tokens, heads, { from, to, base: cursor });
    if (!step) break;
    cursor = step.cursor;
    summary.blocks += to - from + 1;
    summary.transfers += step.transfers;
    summary.transitions += step.transitions;
    summary.scannedTo = cursor.height;
    const now = deps.clock.now();
    if (now - lastProgress > PROGRESS_EVERY_MS && heads.head - cursor.height > 0) {
      lastProgress = now;
      const done = cursor.height - startHeight;
      deps.logger.info(
        {
          chain,
          done,
          todo: heads.head - cursor.height,
          blocksPerSecond: Math.round((done * 1000) / (now - started)),
        },
        'catching up',
      );
    }
  }
  if (summary.blocks > 500) {
    const ms = deps.clock.now() - started;
    deps.logger.info(
      {
        chain,
        blocks: summary.blocks,
        ms,
        blocksPerSecond: Math.round((summary.blocks * 1000) / Math.max(ms, 1)),
      },
      'caught up',
    );
  }
  summary.transitions += await settle(deps, adapter, tokens, heads, cursor);
  return summary;
}
