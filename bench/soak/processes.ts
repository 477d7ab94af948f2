import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { sleep } from '../../src/lib/backoff.ts';
import type { KassaSetup } from './kassa-setup.ts';

/**
 * Kassa as real processes on the soak's database: `kassa api` + `kassa worker` (mode `split`) or
 * `kassa start` (mode `start`), the last 200 lines of their stderr kept for the report.
 */

const KASSA_BIN = join(import.meta.dirname, '../../bin/kassa.mjs');

export type Mode = 'split' | 'start';

/** The processes of one Kassa; none runs until `run(mode)`. */
export function kassaProcesses(kassa: KassaSetup) {
  const procs: { api: ChildProcess | null; worker: ChildProcess | null; start: ChildProcess | null } = {
    api: null,
    worker: null,
    start: null,
  };
  const tails: string[] = [];
  function spawnKassa(command: 'api' | 'worker' | 'start'): ChildProcess {
    const child = spawn(process.execPath, [KASSA_BIN, command, '--config', kassa.configFile], {
      env: kassa.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (c: Buffer) => {
      for (const line of String(c).split('\n').filter(Boolean)) {
        tails.push(`${command}: ${line.slice(0, 400)}`);
        if (tails.length > 200) tails.shift();
      }
    });
    return child;
  }
  async function apiUp(): Promise<void> {
    const end = Date.now() + 60_000;
    while (Date.now() < end) {
      try {
        await fetch(`http://127.0.0.1:${kassa.port}/healthz`);
        return;
      } catch {
        await sleep(100);
      }
    }
    throw new Error(`the API did not come up: ${tails.slice(-5).join(' | ')}`);
  }
  return {
    procs,
    tails,
    /** Brings Kassa up in `mode` (stopping the other mode's processes), once the API answers. */
    async run(mode: Mode): Promise<void> {
      if (mode === 'split') {
        await stop(procs.start, 'SIGTERM');
        procs.start = null;
        if (!procs.api || procs.api.exitCode !== null) procs.api = spawnKassa('api');
        if (!procs.worker || procs.worker.exitCode !== null || procs.worker.signalCode !== null)
          procs.worker = spawnKassa('worker');
      } else {
        await stop(procs.worker, 'SIGTERM');
        await stop(procs.api, 'SIGTERM');
        procs.api = procs.worker = null;
        if (!procs.start || procs.start.exitCode !== null || procs.start.signalCode !== null)
          procs.start = spawnKassa('start');
      }
      await apiUp();
    },
    /** Stops every process with SIGTERM (worker, API, then `kassa start`). */
    async stopAll(): Promise<void> {
      await stop(procs.worker, 'SIGTERM');
      await stop(procs.api, 'SIGTERM');
      await stop(procs.start, 'SIGTERM');
    },
  };
}

export type KassaProcesses = ReturnType<typeof kassaProcesses>;

/** Sends `signal` to a running child and waits until it has exited. */
export async function stop(child: ChildProcess | null, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await exited;
}
