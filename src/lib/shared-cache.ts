/**
 * One value computed at most once per `ttlMs` and shared: callers within the time get the stored
 * value, and callers while it is being computed share that one computation. A failed computation
 * is not stored (the next caller tries again).
 */
export class SharedCache<T> {
  private value: { at: number; data: T } | null = null;
  private pending: Promise<{ at: number; data: T }> | null = null;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  /** The value with the time it was computed (epoch ms). */
  get(): Promise<{ at: number; data: T }> {
    if (this.value && this.now() - this.value.at < this.ttlMs) return Promise.resolve(this.value);
    this.pending ??= this.load().then(
      (data) => {
        this.value = { at: this.now(), data };
        this.pending = null;
        return this.value;
      },
      (error) => {
        this.pending = null;
        throw error;
      },
    );
    return this.pending;
  }

  /** The last value computed, however old, or null (never waits). */
  peek(): { at: number; data: T } | null {
    return this.value;
  }
}
