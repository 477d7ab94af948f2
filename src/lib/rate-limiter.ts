/** A limiter's answer: admitted, or refused with the seconds to wait. */
export type Verdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

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
  hit(key: string, limit: number, windowMs: number): Verdict {
    const verdict = this.check(key, limit, windowMs);
    if (verdict.allowed) this.count(key, windowMs);
    return verdict;
  }

  /** Whether one more event under `key` would stay within `limit`, without counting it. */
  check(key: string, limit: number, windowMs: number): Verdict {
    const now = this.now();
    const w = this.windows.get(key);
    if (!w) return limit >= 1 ? { allowed: true } : { allowed: false, retryAfterSeconds: 1 };
    const start = now - (now % windowMs);
    const current = w.start === start ? w.current : 0;
    const previous = w.start === start ? w.previous : start - w.start === windowMs ? w.current : 0;
    const overlap = 1 - (now - start) / windowMs;
    if (previous * overlap + current + 1 <= limit) return { allowed: true };
    // Admitted again once the previous window's weight has decayed enough, or at the latest when
    // this window ends (if this window alone is full).
    const decayedAt =
      current + 1 > limit ? start + windowMs : start + windowMs * (1 - (limit - 1 - current) / previous);
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((decayedAt - now) / 1000)) };
  }

  /** Counts one event under `key`, whatever the limit (failures are counted after the fact). */
  count(key: string, windowMs: number): void {
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
    w.current++;
  }

  private sweep(now: number, windowMs: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, w] of this.windows)
      if (now - w.start > 2 * Math.max(windowMs, 60_000)) this.windows.delete(key);
  }
}
