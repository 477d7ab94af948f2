/**
 * In-memory sliding-window counter (the previous window's count weighted by how much of it still
 * overlaps). From a cold start it admits exactly `limit` requests in a window and refuses the next.
 * Keys are dropped once both of their windows are over, so memory follows active clients only.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; current: number; previous: number }>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one request for `key`; returns whether it is admitted and, if not, seconds to wait. */
  hit(
    key: string,
    limit: number,
    windowMs: number,
  ): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const now = this.now();
    this.sweep(now, windowMs);
    const start = now - (now % windowMs);
    let w = this.windows.get(key);
    if (!w) {
      w = { start, current: 0, previous: 0 };
      this.windows.set(key, w);
    } else if (w.start !== start) {
      w.previous = start - w.start === windowMs ? w.current : 0;
      w.current = 0;
      w.start = start;
    }
    const overlap = 1 - (now - start) / windowMs;
    const estimate = w.previous * overlap + w.current;
    if (estimate + 1 > limit) {
      // Admitted again once the previous window's weight has decayed enough, or at the latest when
      // this window ends (if this window alone is full).
      const decayedAt =
        w.current + 1 > limit
          ? start + windowMs
          : start + windowMs * (1 - (limit - 1 - w.current) / w.previous);
      const retryMs = decayedAt - now;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryMs / 1000)) };
    }
    w.current++;
    return { allowed: true };
  }

  private sweep(now: number, windowMs: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, w] of this.windows)
      if (now - w.start > 2 * Math.max(windowMs, 60_000)) this.windows.delete(key);
  }
}
