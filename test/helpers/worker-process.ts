import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { spawnKassa, workerEnv } from './cli.ts';

/** One pino line of a worker process. */
export interface WorkerLine {
  msg: string;
  time: number;
  /** When the test process read the line (Date.now()). */
  seenAt: number;
  [key: string]: unknown;
}

/** A real `kassa worker` process whose JSON log lines (info and up) the caller reads. */
export interface LoggedWorker {
  child: ChildProcess;
  lines: WorkerLine[];
  /** Resolves with the first line (already read or to come) that `match` accepts; rejects after `timeoutMs`. */
  line(match: (l: WorkerLine) => boolean, timeoutMs: number, what?: string): Promise<WorkerLine>;
  /** Its lease holder id, once it logged "worker started". */
  holder(): Promise<string>;
}

/** The line a worker writes when it holds the worker lease (services/worker-lease.ts). */
export const HOLDING = 'holding the worker lease; jobs run in this process';

/**
 * Starts `kassa worker --config <configFile>` on the database `dbFile` with the test mnemonic and
 * master key, logging at info, and reads its stdout line by line (so a full pipe never stalls it).
 */
export function startLoggedWorker(configFile: string, dbFile: string): LoggedWorker {
  const child = spawnKassa(['worker', '--config', configFile], workerEnv(dbFile, 'info'));
  child.stderr?.resume();
  const lines: WorkerLine[] = [];
  let waiters: { match: (l: WorkerLine) => boolean; resolve: (l: WorkerLine) => void }[] = [];
  createInterface({ input: child.stdout! }).on('line', (text) => {
    let line: WorkerLine;
    try {
      line = { ...JSON.parse(text), seenAt: Date.now() };
    } catch {
      return;
    }
    lines.push(line);
    waiters = waiters.filter((w) => {
      if (!w.match(line)) return true;
      w.resolve(line);
      return false;
    });
  });
  const line = (match: (l: WorkerLine) => boolean, timeoutMs: number, what = 'a log line') =>
    new Promise<WorkerLine>((resolve, reject) => {
      const seen = lines.find(match);
      if (seen) return resolve(seen);
      const timer = setTimeout(() => {
        waiters = waiters.filter((w) => w.resolve !== done);
        reject(new Error(`worker ${child.pid}: no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (l: WorkerLine) => {
        clearTimeout(timer);
        resolve(l);
      };
      waiters.push({ match, resolve: done });
    });
  return {
    child,
    lines,
    line,
    holder: async () =>
      String((await line((l) => l.msg === 'worker started', 60_000, '"worker started"')).holder),
  };
}
