import { JsonRpcError } from '../rpc/json-rpc.ts';

/**
 * Whether an eth_getLogs error means "ask for less" (range or result-size caps of providers:
 * Alchemy -32602, Infura -32005, "block range too large", "query exceeds max results", …).
 */
export function isRangeError(error: unknown): boolean {
  const e =
    (error as { cause?: unknown })?.cause instanceof JsonRpcError
      ? (error as { cause: JsonRpcError }).cause
      : error;
  const message = `${(e as Error)?.message ?? ''} ${(e as { details?: string })?.details ?? ''}`;
  return /range|too many|too large|more than|exceed|limit|max results|response size|10000 results/i.test(
    message,
  );
}

/**
 * The adaptive eth_getLogs window: halves on a range error, grows back by half after a run of
 * successes, never above the configured maximum.
 */
export class LogRange {
  private step: number;
  private successes = 0;

  constructor(private readonly max: number) {
    this.step = max;
  }

  /** The block range to ask for now. */
  current(): number {
    return this.step;
  }

  /** A range of `size` blocks succeeded. */
  succeeded(): void {
    if (++this.successes >= 5 && this.step < this.max) {
      this.step = Math.min(this.max, Math.ceil(this.step * 1.5));
      this.successes = 0;
    }
  }

  /** A range of `size` blocks was refused as too large; returns the new step. */
  refused(size: number): number {
    this.successes = 0;
    this.step = Math.max(1, Math.floor(Math.min(this.step, size) / 2));
    return this.step;
  }
}
