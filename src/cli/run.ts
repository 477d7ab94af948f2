import { bootstrap } from '../bootstrap.ts';
import type { Deps } from '../services/deps.ts';
import { startApiServer } from './serve.ts';

type Flags = Record<string, string | boolean | undefined>;

/** A running worker, as the CLI stops it. */
export interface RunningWorker {
  stop(): Promise<void>;
}

/**
 * Loads the worker (workers/process.ts): given to `main` by the entry points, so that src/ never
 * imports workers/ and commands that run no worker never load it.
 */
export type LoadWorker = () => Promise<(deps: Deps) => Promise<RunningWorker>>;

/** Waits for SIGINT/SIGTERM, then runs `stop` once (a second signal exits at once). */
export function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    process.stderr.write(`\n${signal}: stopping…\n`);
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

/**
 * `kassa start` (API and worker in one process), `kassa api`, `kassa worker`. `start` sets up a new
 * database itself; `api` and `worker` expect `kassa migrate` to have run.
 */
export async function runCommand(
  mode: 'start' | 'api' | 'worker',
  flags: Flags,
  loadWorker: LoadWorker,
): Promise<void> {
  // The worker's code is loaded before anything serves (as when it was imported statically), and
  // the signal handlers are in place before the API answers: a SIGTERM right after the first answer
  // stops the process cleanly instead of killing it.
  const startWorker = mode === 'api' ? null : await loadWorker();
  const rt = await bootstrap({
    configFile: flags.config as string | undefined,
    need: { mnemonic: true, masterKey: true },
    migrations: mode === 'start' ? 'if-new' : 'require',
    chains: true,
    walCheckpointer: true,
    lockWait: 'async',
  });
  let api: Awaited<ReturnType<typeof startApiServer>> | null = null;
  let worker: RunningWorker | null = null;
  onShutdown(async () => {
    await api?.close();
    await worker?.stop();
    await rt.close();
  });
  api = mode === 'worker' ? null : await startApiServer(rt);
  worker = startWorker ? await startWorker(rt) : null;
}
