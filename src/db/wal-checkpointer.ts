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
  /** The last checkpoint: pages in the log, pages of it copied into the database file, and when. */
  last(): { log: number; checkpointed: number; at: number } | null;
  /** Runs a last checkpoint and ends the thread. */
  stop(): Promise<void>;
}

/**
 * Moves SQLite's WAL checkpoints off the event loop. By default the connection whose commit pushes
 * the log past 1,000 pages copies it into the database file inside that commit: on the API that is a
 * request stalled for milliseconds and about a third of createCollection's CPU (bench/RESULTS.md).
 * Here a thread with its own connection checkpoints every 250 ms on the other core, and the process's
 * connection keeps a far higher automatic threshold as the fallback. Long-running processes (start,
 * api, worker, sandbox) use it; one-shot commands keep SQLite's default.
 */
export function startWalCheckpointer(db: Db, path: string, logger: Logger): WalCheckpointer | null {
  if (path === ':memory:' || path === '') return null;
  db.$client.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  db.$client.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const thread = new Worker(THREAD_SOURCE, {
    eval: true,
    workerData: { driver, path, intervalMs: INTERVAL_MS, journalSizeLimit: JOURNAL_SIZE_LIMIT_BYTES },
  });
  thread.unref();
  let last: ReturnType<WalCheckpointer['last']> = null;
  thread.on(
    'message',
    (message: { error?: string; recovered?: boolean; log?: number; checkpointed?: number }) => {
      if (message.log !== undefined && message.checkpointed !== undefined) {
        last = { log: message.log, checkpointed: message.checkpointed, at: Date.now() };
      } else if (message.error) logger.warn({ error: message.error }, 'WAL checkpoint failed; retrying');
      else if (message.recovered) logger.info('WAL checkpoints work again');
    },
  );
  let exited = false;
  const done = new Promise<void>((resolve) => {
    thread.once('exit', () => {
      exited = true;
      resolve();
    });
  });
  thread.on('error', (error) => {
    // The process keeps working: its own connection checkpoints past the fallback threshold.
    logger.error({ error: error.message }, 'WAL checkpoint thread stopped; SQLite checkpoints inline');
    db.$client.pragma('wal_autocheckpoint = 1000');
  });
  return {
    last: () => last,
    async stop() {
      if (exited) return;
      thread.ref();
      thread.postMessage('stop');
      await done;
    },
  };
}
