import type { Chain } from '../domain/chains.ts';

/** What the worker knows about a chain right now (readiness, progress, last error). */
export interface ChainStatus {
  chain: Chain;
  state: 'connecting' | 'ready' | 'disabled';
  /** Why the chain is disabled or failing (never contains credentials). */
  lastError: string | null;
  head: number | null;
  final: number | null;
  scannedTo: number | null;
  lastScanAt: number | null;
}

/** Per-chain status shared between the worker's jobs and the operations endpoints of the same process. */
export class ChainHealth {
  private readonly statuses = new Map<Chain, ChainStatus>();

  /** The status of a chain (created on first use). */
  get(chain: Chain): ChainStatus {
    let s = this.statuses.get(chain);
    if (!s) {
      s = {
        chain,
        state: 'connecting',
        lastError: null,
        head: null,
        final: null,
        scannedTo: null,
        lastScanAt: null,
      };
      this.statuses.set(chain, s);
    }
    return s;
  }

  /** Forgets every chain (this process stopped running the worker's jobs: another process scans now). */
  clear(): void {
    this.statuses.clear();
  }

  /** Every chain seen so far. */
  all(): ChainStatus[] {
    return [...this.statuses.values()];
  }
}
