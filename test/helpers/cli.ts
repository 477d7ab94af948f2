import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { TEST_MASTER_KEY, TEST_MNEMONIC } from './harness.ts';
import { engineEnv } from './test-engine.ts';

export const KASSA_BIN = join(import.meta.dirname, '../../bin/kassa.mjs');

/**
 * The `kassa` processes below run on a harness's PostgreSQL database when KASSA_DB names that
 * harness's file and the tests run on PostgreSQL (engineEnv, test/helpers/test-engine.ts).
 *
 * Environment every test process starts from: the admin listener on a free port, so test files
 * running side by side never fight over 9180 (a test that needs it passes KASSA_ADMIN_PORT itself).
 */
const BASE_ENV = { KASSA_ADMIN_PORT: '0' };

/** Runs `kassa …` to completion and returns its exit code and output. */
export function kassa(
  args: string[],
  env: Record<string, string>,
): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [KASSA_BIN, ...args], {
    env: engineEnv({ PATH: process.env.PATH ?? '', KASSA_LOG_LEVEL: 'info', ...BASE_ENV, ...env }),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Runs `kassa …` to completion without blocking this process's event loop (servers the test runs
 * in process, such as a fault proxy, keep answering the command).
 */
export function kassaAsync(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [KASSA_BIN, ...args], {
      env: engineEnv({ PATH: process.env.PATH ?? '', KASSA_LOG_LEVEL: 'info', ...env }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts a long-running `kassa …` process. */
export function spawnKassa(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [KASSA_BIN, ...args], {
    env: engineEnv({ PATH: process.env.PATH ?? '', ...BASE_ENV, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A TCP port free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers (any status) or `timeoutMs` passes. */
export async function waitForHttp(url: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** The environment of a test `kassa worker` on the database `dbFile`: the test mnemonic and master key. */
export function workerEnv(dbFile: string, logLevel: string): Record<string, string> {
  return {
    KASSA_DB: dbFile,
    KASSA_MNEMONIC: TEST_MNEMONIC,
    KASSA_MASTER_KEY: TEST_MASTER_KEY,
    KASSA_LOG_LEVEL: logLevel,
  };
}

/**
 * Starts the real `kassa worker --config <configFile>` on the database `dbFile`, with the test
 * mnemonic and master key, logging warnings only; its output is drained so a full pipe never stalls it.
 */
export function startWorkerProcess(configFile: string, dbFile: string): ChildProcess {
  const child = spawnKassa(['worker', '--config', configFile], workerEnv(dbFile, 'warn'));
  child.stdout?.resume();
  child.stderr?.resume();
  return child;
}

/** SIGKILLs a child process and resolves once it has exited. */
export async function sigkill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
