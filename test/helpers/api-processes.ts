import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, kassaAsync, sigkill, spawnKassa } from './cli.ts';
import { TEST_MASTER_KEY, TEST_MNEMONIC } from './harness.ts';
import { envelope } from './signing.ts';

/** Several real `kassa api` processes on one database, and the `kassa` CLI on the same database. */
export interface ApiProcesses {
  /** Each process's base URL (http://127.0.0.1:PORT), in start order. */
  urls: string[];
  /** Runs `kassa …` (a third process) on the same database and configuration. */
  cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Starts another long-running `kassa …` (e.g. `worker`) on them, stopped with the rest; output drained. */
  start(args: string[]): ChildProcess;
  /** POSTs a signed envelope (or the exact `text` given) to process `i`. */
  post(i: number, path: string, token: string, data: unknown, text?: string): Promise<Response>;
  /** SIGKILLs every process and removes the folder. */
  stop(): Promise<void>;
}

/**
 * Starts `count` `kassa api` processes on the database `env` names (KASSA_DATABASE_URL for
 * PostgreSQL, KASSA_DB for SQLite), with `config` written as their config file, each on its own
 * free port on 127.0.0.1, and resolves once every one answers /healthz. Their output is drained; a
 * process that exits before it answers rejects with the end of its stderr.
 */
export async function startApiProcesses(
  count: number,
  env: Record<string, string>,
  config: Record<string, unknown>,
): Promise<ApiProcesses> {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-api-processes-'));
  const configFile = join(dir, 'kassa.json');
  writeFileSync(configFile, JSON.stringify({ host: '127.0.0.1', ...config }));
  const base = {
    KASSA_DB: join(dir, 'unused.db'),
    KASSA_MNEMONIC: TEST_MNEMONIC,
    KASSA_MASTER_KEY: TEST_MASTER_KEY,
    KASSA_LOG_LEVEL: 'warn',
    ...env,
  };
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.map(sigkill));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const urls = await Promise.all(
      Array.from({ length: count }, async () => {
        const port = await freePort();
        const child = spawnKassa(['api', '--config', configFile], { ...base, PORT: String(port) });
        children.push(child);
        await healthy(child, `http://127.0.0.1:${port}`);
        return `http://127.0.0.1:${port}`;
      }),
    );
    return {
      urls,
      cli: (args) => kassaAsync([...args, '--config', configFile], base),
      start(args) {
        const child = spawnKassa([...args, '--config', configFile], base);
        children.push(child);
        child.stdout?.resume();
        child.stderr?.resume();
        return child;
      },
      post: (i, path, token, data, text) =>
        fetch(`${urls[i]}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: text ?? envelope(token, data),
        }),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Resolves once `url`/healthz answers 200; rejects with the process's stderr if it exits first. */
async function healthy(child: ChildProcess, url: string, timeoutMs = 30_000): Promise<void> {
  let stderr = '';
  child.stdout?.resume();
  child.stderr?.on('data', (chunk) => {
    stderr = `${stderr}${chunk}`.slice(-4000);
  });
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `kassa api exited (${child.exitCode ?? child.signalCode}) before it answered: ${stderr}`,
      );
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`kassa api at ${url} did not answer within ${timeoutMs} ms: ${stderr}`);
}
