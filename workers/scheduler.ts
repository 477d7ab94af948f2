import { Cron } from 'croner';
import { AppError } from '../src/domain/errors.ts';
import type { Logger } from '../src/lib/logger.ts';

/** Lets runs start only while the worker holds its lease (src/services/worker-lease.ts). */
export interface RunGate {
  /** Whether a run may start now. */
  open(): boolean;
  /** Aborted when the gate closes: running jobs stop between steps. */
  readonly signal: AbortSignal;
}

/** A job: one step of work that writes only whole transactions; `signal` asks it to stop between steps. */
export type Job = (signal: AbortSignal) => Promise<unknown>;

interface Entry {
  name: string;
  job: Job;
  /** `every`: on an interval (run at once when the gate opens); `cron`: on its pattern only. */
  kind: 'every' | 'cron';
  running: Promise<void> | null;
  again: boolean;
  cron: Cron | null;
  timer: NodeJS.Timeout | null;
  /** The last run found the database locked by another process (logged once until a run succeeds). */
  locked: boolean;
}

/**
 * Runs jobs on a cadence with overlap protection: croner jobs (`protect: true`) for cadences of a
 * second or more, a timer loop for sub-second cadences (tests, fast devnets). A job can be nudged to
 * run now. `stop()` stops scheduling, asks running jobs to finish their current step, and waits.
 * A failing run is logged and the job runs again on its next tick; it never stops the worker. A run
 * that found the database locked by another process is logged once, at warn, until one succeeds.
 * With a `gate` (the worker lease), a run starts only while the gate is open, checked right before
 * each run; its signal is also aborted when the gate closes, so a run that started under the lease
 * stops after its current step once the lease is lost. `resume()` runs the interval jobs at once.
 */
export class Scheduler {
  private readonly entries = new Map<string, Entry>();
  private readonly controller = new AbortController();
  private stopped = false;

  constructor(
    private readonly logger: Logger,
    private readonly gate: RunGate | null = null,
  ) {}

  /** Schedules `job` every `intervalMs` (first run immediately). */
  every(name: string, intervalMs: number, job: Job): void {
    const entry: Entry = {
      name,
      job,
      kind: 'every',
      running: null,
      again: false,
      cron: null,
      timer: null,
      locked: false,
    };
    this.entries.set(name, entry);
    if (intervalMs >= 1000) {
      entry.cron = new Cron(
        '* * * * * *',
        { interval: Math.round(intervalMs / 1000), protect: true, name },
        () => this.run(entry),
      );
    } else {
      const loop = () => {
        if (this.stopped) return;
        void this.run(entry).finally(() => {
          if (!this.stopped) entry.timer = setTimeout(loop, intervalMs);
        });
      };
      entry.timer = setTimeout(loop, 0);
      return;
    }
    void this.run(entry);
  }

  /** Schedules `job` on a croner pattern (5 fields, or 6 with seconds first), protected from overlap. */
  cron(name: string, pattern: string, job: Job): void {
    const entry: Entry = {
      name,
      job,
      kind: 'cron',
      running: null,
      again: false,
      cron: null,
      timer: null,
      locked: false,
    };
    this.entries.set(name, entry);
    entry.cron = new Cron(pattern, { protect: true, name }, () => this.run(entry));
  }

  /** Runs a job as soon as it is free (once more if it is running now). */
  nudge(name: string): void {
    const entry = this.entries.get(name);
    if (!entry || this.stopped) return;
    if (entry.running !== null) entry.again = true;
    else void this.run(entry);
  }

  /** Runs every interval job now (the gate just opened: the worker took its lease); cron jobs keep their pattern. */
  resume(): void {
    for (const entry of this.entries.values()) if (entry.kind === 'every') this.nudge(entry.name);
  }

  /** Whether stop() was called. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  private run(entry: Entry): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (entry.running !== null) return entry.running;
    // fencing: no run starts without a live lease (a standby, or a holder that lost it, skips the tick)
    if (this.gate && !this.gate.open()) return Promise.resolve();
    const signal = this.gate
      ? AbortSignal.any([this.controller.signal, this.gate.signal])
      : this.controller.signal;
    const started = Date.now();
    entry.running = entry
      .job(signal)
      .then((summary) => {
        if (entry.locked) this.logger.info({ job: entry.name }, 'database free again; job ran');
        entry.locked = false;
        if (summary && typeof summary === 'object' && Object.values(summary).some((v) => v)) {
          this.logger.debug({ job: entry.name, ms: Date.now() - started, ...summary }, 'job done');
        }
      })
      .catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'busy') {
          // Another process (a `kassa` command, an operator's sqlite3 shell) holds the write lock:
          // nothing was written, and the next ticks retry without blocking the event loop.
          if (!entry.locked)
            this.logger.warn(
              { job: entry.name },
              'database locked by another process; the job retries on its next ticks',
            );
          entry.locked = true;
          return;
        }
        this.logger.error({ job: entry.name, err }, 'job failed; it will run again on its next tick');
      })
      .finally(() => {
        entry.running = null;
        if (entry.again && !this.stopped) {
          entry.again = false;
          void this.run(entry);
        }
      });
    return entry.running;
  }

  /** Stops scheduling and waits (up to `graceMs`) for running jobs to finish their current step. */
  async stop(graceMs = 30_000): Promise<void> {
    this.stopped = true;
    this.controller.abort();
    for (const e of this.entries.values()) {
      e.cron?.stop();
      if (e.timer) clearTimeout(e.timer);
    }
    const running = [...this.entries.values()].map((e) => e.running).filter((p) => p !== null);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(running),
      new Promise((resolve) => {
        timer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timer);
  }
}
