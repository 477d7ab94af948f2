import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../lib/logger.ts';
import type { Db } from './client.ts';

/** How often the thread copies the write-ahead log back into the database file. */
const INTERVAL_MS = 250;
/**
 * Pages after which a committing connection still checkpoints by itself, as SQLite does by default
 * at 1,000: only reached if the thread falls behind or stops (4 KiB pages: 40 MiB of log).
 */
const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;
/** The log file is cut back to this size after it has been fully copied (SQLite keeps it otherwise). */
const JOURNAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * The thread's code, plain CommonJS so that it runs the same under tsx and in the single-file build
 * (a worker file would be one more file for the bundle to carry). It opens its own connection and runs
 * a PASSIVE checkpoint on a timer: that never waits for readers or the writer, and SQLite allows it
 * beside a committing connection of this or another process.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
db.pragma('journal_size_limit = ' + workerData.journalSizeLimit);
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let failing = false;
const timer = setInterval(() => {
  try {
    const result = checkpoint.get();
    parentPort.postMessage({ log: result.log, checkpointed: result.checkpointed });
    if (failing) parentPort.postMessage({ recovered: true });
    failing = false;
  } catch (error) {
    if (!failing) parentPort.postMessage({ error: String(error && error.message || error) });
    failing = true;
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  try { checkpoint.get(); } catch {}
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpointer {
  /** Whether the thread runs now (it runs only while the process writes a lot). */
  active(): boolean;
  /** The last checkpoint the thread made: log pages, pages copied into the database file, and when. */
  last(): { log: number; checkpointed: number; at: number } | null;
  /** How many times the write rate was sampled so far (a test waits for samples, not for time). */
  samples(): number;
  /** Ends the thread after a last checkpoint, and stops watching. */
  stop(): Promise<void>;
}

export interface WalCheckpointerOptions {
  /** Rows this connection writes per second from which the thread starts (0: from the start). */
  busyRowsPerSecond?: number;
  /** How long the writes must stay below that before the thread ends. */
  quietMs?: number;
  /** How often the write rate is sampled. */
  sampleMs?: number;
}

/**
 * createCollection writes three rows, so this is about 330 orders a second; it stays above what a
 * start writes (the first 600 pool addresses) and below where inline checkpoints start to cost.
 */
const BUSY_ROWS_PER_SECOND = 1_000;
const QUIET_MS = 60_000;
const SAMPLE_MS = 1_000;

/**
 * Moves SQLite's WAL checkpoints off the event loop while the process writes a lot. By default the
 * connection whose commit pushes the log past 1,000 pages copies it into the database file inside
 * that commit: under load on the API that is a request stalled for milliseconds and about a fifth of
 * createCollection's throughput (bench/RESULTS.md). From `busyRowsPerSecond` on, a thread with its own
 * connection checkpoints every 250 ms on the other core, and this connection keeps a far higher
 * automatic threshold as the fallback; after `quietMs` below it the thread ends and SQLite's own
 * checkpoints resume. The thread is started on demand because it costs memory (a V8 isolate, about
 * 6–16 MB of RSS) that an idle gateway has no use for. Long-running processes (start, api, worker,
 * sandbox) use it; one-shot commands keep SQLite's default.
 */
export function startWalCheckpointer(
  db: Db,
  path: string,
  logger: Logger,
  options: WalCheckpointerOptions = {},
): WalCheckpointer | null {
  if (path === ':memory:' || path === '') return null;
  db.$client.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
  const busyRows = options.busyRowsPerSecond ?? BUSY_ROWS_PER_SECOND;
  const quietMs = options.quietMs ?? QUIET_MS;
  const totalChanges = db.$client.prepare('SELECT total_changes()').pluck();
  let thread: CheckpointThread | null = null;
  let last: ReturnType<WalCheckpointer['last']> = null;
  let lastBusyAt = Date.now();
  let previous = totalChanges.get() as number;
  let samples = 0;
  const begin = () => {
    thread = startThread(db, path, logger, (result) => {
      last = result;
    });
  };
  const end = () => {
    const ending = thread;
    thread = null;
    return ending?.stop() ?? Promise.resolve();
  };
  if (busyRows === 0) begin();
  const timer = setInterval(() => {
    if (!db.$client.open) return;
    const now = Date.now();
    const changes = totalChanges.get() as number;
    const perSecond = ((changes - previous) * 1000) / (options.sampleMs ?? SAMPLE_MS);
    previous = changes;
    samples++;
    if (busyRows === 0 || perSecond >= busyRows) {
      lastBusyAt = now;
      if (!thread) begin(); // a thread that failed is not restarted until a quiet spell ends it
    } else if (thread && now - lastBusyAt > quietMs) {
      void end();
    }
  }, options.sampleMs ?? SAMPLE_MS);
  timer.unref();
  return {
    active: () => thread !== null && !thread.failed(),
    last: () => last,
    samples: () => samples,
    async stop() {
      clearInterval(timer);
      await end();
    },
  };
}

interface CheckpointThread {
  failed(): boolean;
  stop(): Promise<void>;
}

function startThread(
  db: Db,
  path: string,
  logger: Logger,
  onCheckpoint: (result: { log: number; checkpointed: number; at: number }) => void,
): CheckpointThread {
  db.$client.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const thread = new Worker(THREAD_SOURCE, {
    eval: true,
    workerData: { driver, path, intervalMs: INTERVAL_MS, journalSizeLimit: JOURNAL_SIZE_LIMIT_BYTES },
  });
  thread.unref();
  thread.on(
    'message',
    (message: { error?: string; recovered?: boolean; log?: number; checkpointed?: number }) => {
      if (message.log !== undefined && message.checkpointed !== undefined) {
        onCheckpoint({ log: message.log, checkpointed: message.checkpointed, at: Date.now() });
      } else if (message.error) logger.warn({ error: message.error }, 'WAL checkpoint failed; retrying');
      else if (message.recovered) logger.info('WAL checkpoints work again');
    },
  );
  let exited = false;
  let failed = false;
  const done = new Promise<void>((resolve) => {
    thread.once('exit', () => {
      exited = true;
      // Back to SQLite's own checkpoints inside commits, whether the thread ended or died.
      if (db.$client.open) db.$client.pragma('wal_autocheckpoint = 1000');
      resolve();
    });
  });
  thread.on('error', (error) => {
    failed = true;
    logger.error({ error: error.message }, 'WAL checkpoint thread stopped; SQLite checkpoints inline');
  });
  return {
    failed: () => failed,
    async stop() {
      if (exited) return;
      thread.ref();
      thread.postMessage('stop');
      await done;
    },
  };
}
