import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import { createSqliteStore } from '../src/db/sqlite-store.ts';
import type { Store } from '../src/db/store.ts';
import { systemClock } from '../src/lib/clock.ts';
import { type LeaseTiming, WORKER_LEASE, WorkerLeaseKeeper } from '../src/services/worker-lease.ts';
import { Scheduler } from './scheduler.ts';

/** Short leases, so a take-over happens within a test; the proportions are the worker's (ttl = 3 renewals). */
const TIMING: LeaseTiming = { ttlMs: 600, renewEveryMs: 200, standbyPollMs: 50, safetyMs: 150 };

const dir = mkdtempSync(join(tmpdir(), 'kassa-lease-'));
const file = join(dir, 'kassa.db');
applyMigrations(openDatabase(file));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  const db = openDatabase(file);
  db.$client.prepare('DELETE FROM worker_leases').run();
  db.$client.close();
});

/** One worker process as far as the lease goes: its own connection, logs, keeper and scheduler. */
function worker(holder: string, store: Store = openStore()) {
  const lines: { msg: string; [k: string]: unknown }[] = [];
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk, _e, done) {
        for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    }),
  );
  let scheduler: Scheduler | null = null;
  const keeper = new WorkerLeaseKeeper(
    { db: store, clock: systemClock, logger },
    holder,
    { onGain: () => scheduler?.resume() },
    TIMING,
  );
  scheduler = new Scheduler(logger, keeper);
  const runs: number[] = [];
  const s = scheduler;
  cleanups.push(async () => {
    await s.stop(1000);
    await keeper.stop({ release: false });
  });
  return { keeper, scheduler: s, lines, runs, store };
}

function openStore(): Store {
  const db = openDatabase(file, { lockWait: 'async' });
  cleanups.push(() => {
    db.$client.close();
  });
  return createSqliteStore(db);
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not reached within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('the worker lease', () => {
  it('runs jobs in the holder only; the standby says whom it waits for and takes over once the lease ran out', async () => {
    const a = worker('host:1:aaaa');
    const b = worker('host:2:bbbb');
    await a.keeper.start();
    await b.keeper.start();
    // a job on a long interval: the standby skips its first tick, and runs it at once when it takes over
    // (croner names are unique per process: one per worker here)
    for (const [w, name] of [
      [a, 'scan-a'],
      [b, 'scan-b'],
    ] as const)
      w.scheduler.every(name, 60_000, async () => void w.runs.push(Date.now()));
    await until(() => a.runs.length > 0, 'the holder ran its job');
    expect(b.runs).toEqual([]);
    expect(b.lines.map((l) => l.msg)).toContain('waiting for the worker lease held by host:1:aaaa');

    // the holder dies (no renewal, no release: what SIGKILL leaves)
    const lease = await a.store.findWorkerLease(WORKER_LEASE);
    await a.scheduler.stop(0);
    await a.keeper.stop({ release: false });
    await until(() => b.runs.length > 0, 'the standby ran the job after taking over');
    expect(b.runs[0]).toBeGreaterThanOrEqual(lease?.expiresAt ?? Infinity);
    expect(await b.store.findWorkerLease(WORKER_LEASE)).toMatchObject({ holder: 'host:2:bbbb' });
    expect(b.lines.find((l) => l.msg === 'holding the worker lease; jobs run in this process')).toMatchObject(
      {
        tookOverFrom: 'host:1:aaaa',
      },
    );
  });

  it('stops starting runs and aborts the running one as soon as a renewal finds another holder', async () => {
    const a = worker('host:1:aaaa');
    await a.keeper.start();
    let release: () => void = () => {};
    let signal: AbortSignal | null = null;
    a.scheduler.every('step', 20, async (s) => {
      a.runs.push(Date.now());
      signal = s;
      await new Promise<void>((r) => {
        release = r;
      });
    });
    await until(() => signal !== null, 'the job is running');
    // another process took the lease over (as if this one had not renewed in time)
    const other = openStore();
    const now = Date.now();
    await other.acquireWorkerLease({
      name: WORKER_LEASE,
      holder: 'host:9:9999',
      now: now + 60_000,
      ttlMs: 60_000,
    });
    await until(() => (signal as AbortSignal | null)?.aborted === true, 'the running job was told to stop');
    expect(a.keeper.open()).toBe(false);
    expect(a.lines.find((l) => l.msg.startsWith('lost the worker lease'))).toMatchObject({
      reason: 'another process holds the lease now (host:9:9999)',
    });
    release(); // the running step finishes
    await until(
      () => a.lines.some((l) => l.msg === 'waiting for the worker lease held by host:9:9999'),
      'standby',
    );
    await new Promise((r) => setImmediate(r)); // the finished run has been cleared
    const before = a.runs.length;
    a.scheduler.nudge('step');
    a.scheduler.resume();
    expect(a.runs.length).toBe(before);
  });

  it('stops at once when a renewal fails, and runs again once the database answers', async () => {
    const store = openStore();
    let down = false;
    const flaky: Store = {
      ...store,
      acquireWorkerLease: (input) =>
        down ? Promise.reject(new Error('connection refused')) : store.acquireWorkerLease(input),
    };
    const a = worker('host:1:aaaa', flaky);
    await a.keeper.start();
    a.scheduler.every('tick', 20, async () => void a.runs.push(Date.now()));
    await until(() => a.runs.length > 0, 'runs');
    const signal = a.keeper.signal;
    down = true;
    await until(() => signal.aborted, 'the tenure ended on the failed renewal', 2000);
    expect(a.keeper.open()).toBe(false);
    const stoppedAt = a.runs.length;
    a.scheduler.nudge('tick');
    expect(a.runs.length).toBe(stoppedAt);
    expect(a.lines.map((l) => l.msg)).toContain(
      'cannot reach the database for the worker lease; no job runs here until it answers',
    );
    down = false;
    await until(() => a.runs.length > stoppedAt, 'runs resumed with the lease held again');
    expect(a.keeper.open()).toBe(true);
  });

  it('closes the gate at its deadline when a renewal hangs', async () => {
    const store = openStore();
    let hang = false;
    const hanging: Store = {
      ...store,
      acquireWorkerLease: (input) => (hang ? new Promise(() => {}) : store.acquireWorkerLease(input)),
    };
    const a = worker('host:1:aaaa', hanging);
    await a.keeper.start();
    const started = performance.now();
    hang = true;
    const signal = a.keeper.signal;
    await until(() => signal.aborted, 'the deadline passed', 2000);
    expect(performance.now() - started).toBeLessThan(TIMING.ttlMs);
    expect(a.lines.find((l) => l.msg.startsWith('lost the worker lease'))).toMatchObject({
      reason: 'the lease was not renewed in time',
    });
    // the lease has not run out in the database yet: the gate closed before anyone may take over
    const stored = await store.findWorkerLease(WORKER_LEASE);
    expect(stored?.expiresAt).toBeGreaterThan(Date.now());
  });

  it('hands over without waiting for the expiry when the holder stops gracefully', async () => {
    const a = worker('host:1:aaaa');
    const b = worker('host:2:bbbb');
    await a.keeper.start();
    await b.keeper.start();
    const held = await a.store.findWorkerLease(WORKER_LEASE);
    await a.scheduler.stop();
    await a.keeper.stop({ release: true });
    await until(() => b.keeper.open(), 'the standby holds the lease');
    const taken = await b.store.findWorkerLease(WORKER_LEASE);
    expect(taken?.holder).toBe('host:2:bbbb');
    expect(taken?.acquiredAt).toBeLessThan(held?.expiresAt ?? 0);
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));
