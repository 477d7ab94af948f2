import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { WorkerLease } from '../db/store.ts';
import type { Deps } from './deps.ts';

/** The name of the one lease every worker process competes for. */
export const WORKER_LEASE = 'worker';

/** How the lease is kept; the defaults are WORKER_LEASE_TIMING. */
export interface LeaseTiming {
  /**
   * How long a lease runs without renewal. A SIGKILLed holder's lease runs out at most this long
   * after its last renewal, so a standby takes over within ttlMs + standbyPollMs (+ the first job
   * run): 6 s + 1 s keeps the bound of 10 s with room for a loaded machine.
   */
  ttlMs: number;
  /**
   * How often the holder renews: three renewals per TTL, so two in a row may be slow or fail (a
   * busy disk, the write lock held by a `kassa` command) before the lease lapses.
   */
  renewEveryMs: number;
  /** How often a standby asks for the lease: it takes over at most this long after the lease ran out. */
  standbyPollMs: number;
  /**
   * The holder stops starting job runs this long before its lease runs out in the database: room
   * for clock skew between hosts (the database holds wall-clock times of the process that wrote
   * them; the holder measures its own deadline on the monotonic clock) and for the moment between
   * the check and the run. A standby can only take the lease after it ran out, so by then the
   * former holder has stopped starting runs for at least this long.
   */
  safetyMs: number;
}

/** The worker's lease timing: take-over within ttlMs + standbyPollMs = 7 s of a holder's death. */
export const WORKER_LEASE_TIMING: LeaseTiming = {
  ttlMs: 6000,
  renewEveryMs: 2000,
  standbyPollMs: 1000,
  safetyMs: 1000,
};

/** A holder id that names the process in logs and is never reused: host, pid and a random part. */
export function workerHolderId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

interface Tenure {
  controller: AbortController;
  /** performance.now() after which no run may start. */
  deadline: number;
  timer: NodeJS.Timeout;
}

const CLOSED = AbortSignal.abort();

/**
 * Keeps (or waits for) the worker lease of this process: the holder renews it every
 * `renewEveryMs`; a standby asks every `standbyPollMs` and logs "waiting for the worker lease held
 * by <holder>" once per holder. While held, `open()` is true until a local deadline, measured on
 * the monotonic clock from the start of the last successful renewal: ttl − safety later, so
 * before the lease runs out in the database. The lease is lost, and the tenure's signal aborted at
 * once, when a renewal finds another holder, when it fails (database unreachable or locked), or
 * when the deadline passes before a renewal succeeded (a renewal that hangs). Losing it calls
 * `onLose`; (re)gaining it calls `onGain`, so the scheduler runs its jobs at once.
 */
export class WorkerLeaseKeeper {
  private tenure: Tenure | null = null;
  private loop: NodeJS.Timeout | null = null;
  private attempt: Promise<void> | null = null;
  private stopped = false;
  /** The holder last logged as the one to wait for (so the line is written once per holder). */
  private waitingFor: string | null = null;
  private failing = false;

  constructor(
    private readonly deps: Pick<Deps, 'db' | 'clock' | 'logger'>,
    readonly holder: string,
    private readonly hooks: { onGain?: () => void; onLose?: () => void } = {},
    private readonly timing: LeaseTiming = WORKER_LEASE_TIMING,
    private readonly name: string = WORKER_LEASE,
  ) {}

  /** Makes the first attempt (held or standby when it resolves), then keeps trying on its cadence. */
  async start(): Promise<void> {
    await this.tick();
  }

  /** Whether a job run may start now: the lease is held and its local deadline has not passed. */
  open(): boolean {
    return this.tenure !== null && performance.now() < this.tenure.deadline;
  }

  /** The current tenure's signal: aborted when the lease is lost (already aborted while not held). */
  get signal(): AbortSignal {
    return this.tenure?.controller.signal ?? CLOSED;
  }

  /**
   * Stops keeping the lease: no renewal, the gate closed (running jobs see their signal aborted).
   * With `release` (a graceful stop, after the jobs finished) the lease is given back, so a standby
   * takes over within its poll interval instead of waiting for the lease to run out.
   */
  async stop(options: { release: boolean }): Promise<void> {
    this.stopped = true;
    if (this.loop) clearTimeout(this.loop);
    // an attempt under way finishes first (a hung one is not waited for past one renewal interval)
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.attempt,
      new Promise((resolve) => {
        timer = setTimeout(resolve, this.timing.renewEveryMs);
      }),
    ]);
    clearTimeout(timer);
    this.lose(null);
    if (!options.release) return;
    // only this holder's lease is deleted (one an attempt under way at stop() may just have taken, too)
    const released = await this.deps.db
      .releaseWorkerLease({ name: this.name, holder: this.holder })
      .catch((err: unknown) => {
        this.deps.logger.warn(
          { err },
          'could not release the worker lease; a standby takes it when it runs out',
        );
        return false;
      });
    if (released) this.deps.logger.info({ holder: this.holder }, 'worker lease released');
  }

  private tick(): Promise<void> {
    this.attempt = this.renewOrWait().finally(() => {
      this.attempt = null;
      if (this.stopped) return;
      const every = this.tenure ? this.timing.renewEveryMs : this.timing.standbyPollMs;
      this.loop = setTimeout(() => void this.tick(), every);
    });
    return this.attempt;
  }

  private async renewOrWait(): Promise<void> {
    const started = performance.now();
    let lease: WorkerLease;
    try {
      lease = await this.deps.db.acquireWorkerLease({
        name: this.name,
        holder: this.holder,
        now: this.deps.clock.now(),
        ttlMs: this.timing.ttlMs,
      });
    } catch (err) {
      if (this.stopped) return;
      if (this.tenure) this.lose('the lease could not be renewed (database error)');
      if (!this.failing)
        this.deps.logger.warn(
          { err },
          'cannot reach the database for the worker lease; no job runs here until it answers',
        );
      this.failing = true;
      return;
    }
    this.failing = false;
    if (this.stopped) return; // stop() releases what this attempt may just have taken
    if (lease.holder === this.holder) {
      this.hold(started);
      return;
    }
    if (this.tenure) this.lose(`another process holds the lease now (${lease.holder})`);
    if (this.waitingFor !== lease.holder) {
      this.waitingFor = lease.holder;
      this.deps.logger.info(
        { holder: lease.holder, expiresAt: new Date(lease.expiresAt).toISOString() },
        `waiting for the worker lease held by ${lease.holder}`,
      );
    }
  }

  /** A successful acquisition that started at `started`: a new tenure, or the current one extended. */
  private hold(started: number): void {
    const deadline = started + this.timing.ttlMs - this.timing.safetyMs;
    if (deadline <= performance.now()) {
      // the answer came too late to count on: no run may start on it; the next attempt renews
      this.lose('the lease renewal answered too late');
      return;
    }
    if (this.tenure) {
      clearTimeout(this.tenure.timer);
      this.tenure.deadline = deadline;
      this.tenure.timer = this.deadlineTimer(deadline);
      return;
    }
    this.tenure = this.newTenure(started);
    this.deps.logger.info(
      { holder: this.holder, ...(this.waitingFor ? { tookOverFrom: this.waitingFor } : {}) },
      'holding the worker lease; jobs run in this process',
    );
    this.waitingFor = null;
    this.hooks.onGain?.();
  }

  private newTenure(started: number): Tenure {
    const deadline = started + this.timing.ttlMs - this.timing.safetyMs;
    return { controller: new AbortController(), deadline, timer: this.deadlineTimer(deadline) };
  }

  private deadlineTimer(deadline: number): NodeJS.Timeout {
    return setTimeout(
      () => this.lose('the lease was not renewed in time'),
      Math.max(0, deadline - performance.now()),
    );
  }

  /** Ends the tenure: the gate closes and running jobs are asked to stop between steps. */
  private lose(reason: string | null): void {
    const tenure = this.tenure;
    if (!tenure) return;
    this.tenure = null;
    clearTimeout(tenure.timer);
    tenure.controller.abort();
    if (reason)
      this.deps.logger.warn(
        { holder: this.holder, reason },
        'lost the worker lease; no new job runs here, running ones stop after their current step',
      );
    this.hooks.onLose?.();
  }
}
