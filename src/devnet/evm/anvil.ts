import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type AddressInfo, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface StartAnvilOptions {
  /** `--chain-id`; use the real chain id (1, 56, 137, 43114) so chain-specific config is exercised. */
  chainId: number;
  /** A fixed port. Default: a free port picked here, with a new one tried if anvil finds it taken. */
  port?: number;
  /** `--block-time` in seconds (fractions work). Default: automine, one block per transaction. */
  blockTime?: number;
  /** `--slots-in-an-epoch`: `safe` = latest − N, `finalized` = latest − 2N. Anvil's default is 32. */
  slotsInAnEpoch?: number;
  /** `--no-mining`: nothing is mined until `anvil_mine`/`evm_mine`. */
  noMining?: boolean;
  /** `--mnemonic` of the dev accounts (default anvil's `test test … junk`). Visible in `ps`: devnets only. */
  mnemonic?: string;
  /**
   * `--state <file>`: load the chain from the file if it exists, and write it back when anvil stops on
   * SIGTERM (which {@link AnvilInstance.stop} sends). A SIGKILL loses what happened since the last write.
   */
  stateFile?: string;
  /** `--state-interval` in seconds: also write the state file periodically. Needs `stateFile`. */
  stateInterval?: number;
  /** Extra anvil arguments, appended as given. Not `--silent`: readiness is read from anvil's output. */
  extraArgs?: string[];
  /** Path of the anvil binary. Default: {@link resolveAnvilBinary}. */
  binary?: string;
  /** How long to wait for `eth_chainId` to answer, in ms. Default 15 000. */
  readyTimeoutMs?: number;
}

export interface AnvilInstance {
  /** `http://127.0.0.1:<port>` */
  url: string;
  chainId: number;
  port: number;
  /** The anvil child process itself (not a wrapper). */
  process: ChildProcess;
  /** Stops anvil (SIGTERM, then SIGKILL after a grace period) and resolves once it has exited. Idempotent. */
  stop(): Promise<void>;
}

/** Thrown when anvil cannot be started or does not become ready. */
export class AnvilStartError extends Error {
  override readonly name = 'AnvilStartError';
  readonly code = 'ANVIL_START_FAILED';
}

const HOST = '127.0.0.1';
const PORT_ATTEMPTS = 5;
const STOP_GRACE_MS = 5_000;
const STATEFUL_STOP_GRACE_MS = 30_000;
const STDERR_TAIL = 4_096;

const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
  'win32-x64': '@foundry-rs/anvil-win32-amd64',
};

/**
 * Finds the anvil binary shipped by `@foundry-rs/anvil`: the platform package's `bin/anvil` (one process,
 * ~20 MB RSS), else `node_modules/.bin/anvil` (a Node wrapper that forwards SIGINT/SIGTERM to the real
 * binary, but not SIGKILL). Throws {@link AnvilStartError} if neither exists.
 */
export function resolveAnvilBinary(): string {
  const require = createRequire(import.meta.url);
  const exe = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  const pkg = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  if (pkg) {
    try {
      const candidate = join(dirname(require.resolve(`${pkg}/package.json`)), 'bin', exe);
      if (existsSync(candidate)) return candidate;
    } catch {
      // not installed for this platform: try the wrapper
    }
  }
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'node_modules', '.bin', exe);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new AnvilStartError('anvil not found: is @foundry-rs/anvil installed (with optional dependencies)?');
}

/** util-linux's setpriv (Debian's and most Linux images have it), to tie anvil's life to ours. */
const SETPRIV = '/usr/bin/setpriv';

/**
 * How anvil is started: on Linux with setpriv, under `setpriv --pdeathsig SIGTERM`, which execs
 * anvil (same pid) asking the kernel to send it SIGTERM when the thread that started it dies, even
 * by SIGKILL, when none of this process's exit hooks run. anvil dumps `--state` on SIGTERM, so a
 * stateful devnet keeps its chain. Elsewhere, anvil itself (the exit hooks below still apply).
 */
export function anvilCommand(binary: string, args: string[]): { command: string; args: string[] } {
  if (process.platform === 'linux' && existsSync(SETPRIV))
    return { command: SETPRIV, args: ['--pdeathsig', 'SIGTERM', binary, ...args] };
  return { command: binary, args };
}

/** The command-line arguments {@link startAnvil} passes for these options and port. */
export function anvilArgs(options: StartAnvilOptions, port: number): string[] {
  const args = ['--host', HOST, '--port', String(port), '--chain-id', String(options.chainId)];
  if (options.blockTime !== undefined) args.push('--block-time', String(options.blockTime));
  if (options.slotsInAnEpoch !== undefined) args.push('--slots-in-an-epoch', String(options.slotsInAnEpoch));
  if (options.noMining) args.push('--no-mining');
  if (options.mnemonic !== undefined) args.push('--mnemonic', options.mnemonic);
  if (options.stateFile !== undefined) args.push('--state', options.stateFile);
  if (options.stateInterval !== undefined) args.push('--state-interval', String(options.stateInterval));
  if (options.extraArgs) args.push(...options.extraArgs);
  return args;
}

/**
 * Starts anvil on 127.0.0.1 and resolves once `eth_chainId` answers with `chainId` from the process
 * started here. Without `port` it picks a free port and retries on a collision. Every instance is killed
 * when this Node process exits, or on SIGINT/SIGTERM/SIGHUP when nothing else handles them, and on
 * Linux also when it is SIGKILLed (anvilCommand), so none is orphaned. Throws {@link AnvilStartError} if anvil is missing, exits early or is not ready in time.
 */
export async function startAnvil(options: StartAnvilOptions): Promise<AnvilInstance> {
  if (options.stateInterval !== undefined && options.stateFile === undefined) {
    throw new AnvilStartError('stateInterval needs stateFile');
  }
  const binary = options.binary ?? resolveAnvilBinary();
  const attempts = options.port === undefined ? PORT_ATTEMPTS : 1;
  let lastError: AnvilStartError | undefined;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const port = options.port ?? (await freePort());
    const result = await launch(binary, options, port);
    if ('instance' in result) return result.instance;
    lastError = result.error;
    if (!result.portTaken) break;
  }
  throw lastError ?? new AnvilStartError('anvil did not start');
}

type LaunchResult = { instance: AnvilInstance } | { error: AnvilStartError; portTaken: boolean };

async function launch(binary: string, options: StartAnvilOptions, port: number): Promise<LaunchResult> {
  // Not --silent: anvil prints "Listening on <host>:<port>" once it has bound the port, which proves the
  // node answering there is this process (a port race could otherwise let another node answer the probe).
  // Request logging is switched off over RPC once ready; the rest of stdout is drained and dropped.
  const { command, args } = anvilCommand(binary, anvilArgs(options, port));
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const listening = `Listening on ${HOST}:${port}`;
  let stdout = '';
  let stderr = '';
  let bound = false;
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    if (bound) return;
    stdout = (stdout + chunk).slice(-STDERR_TAIL);
    bound = stdout.includes(listening);
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL);
  });
  let spawnError: Error | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', (error) => {
      spawnError = error;
      resolve();
    });
  });
  // 'exit' can come before the last of stderr has been read; 'close' waits for the streams too.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  track(child);

  const url = `http://${HOST}:${port}`;
  const timeoutMs = options.readyTimeoutMs ?? 15_000;
  const deadline = Date.now() + timeoutMs;
  const isRunning = () => child.exitCode === null && child.signalCode === null && spawnError === undefined;
  let ready = false;
  while (isRunning() && Date.now() < deadline) {
    if (bound) {
      const answered = await probeChainId(url);
      if (answered !== undefined && isRunning()) {
        if (answered !== options.chainId) {
          await kill(child, exited, STOP_GRACE_MS);
          return {
            error: new AnvilStartError(
              `anvil on port ${port} answered chain id ${answered}, not ${options.chainId}`,
            ),
            portTaken: false,
          };
        }
        ready = await rpcOk(url, 'anvil_setLoggingEnabled', [false]);
        if (ready) break;
      }
    }
    await Promise.race([exited, sleep(5)]);
  }
  if (!ready) {
    const running = isRunning();
    if (running) await kill(child, exited, STOP_GRACE_MS);
    else if (spawnError === undefined) await Promise.race([closed, sleep(1_000)]);
    const why = spawnError
      ? `could not run ${binary}: ${spawnError.message}`
      : running
        ? `anvil on port ${port} not ready after ${timeoutMs} ms`
        : `anvil exited with ${child.exitCode ?? child.signalCode}`;
    const detail = stderr.trim() ? `: ${stderr.trim()}` : '';
    return {
      error: new AnvilStartError(`${why}${detail}`),
      portTaken: /address already in use/i.test(stderr),
    };
  }

  // A forgotten instance must not keep Node alive; the exit hook below still kills it.
  child.stdout?.removeAllListeners('data');
  child.stdout?.resume();
  child.unref();
  for (const stream of [child.stdout, child.stderr]) (stream as { unref?: () => void } | null)?.unref?.();
  const grace = options.stateFile === undefined ? STOP_GRACE_MS : STATEFUL_STOP_GRACE_MS;
  let stopping: Promise<void> | undefined;
  return {
    instance: {
      url,
      chainId: options.chainId,
      port,
      process: child,
      stop() {
        stopping ??= kill(child, exited, grace);
        return stopping;
      },
    },
  };
}

/** Sends SIGTERM (anvil then writes `--state` and exits), SIGKILL after `graceMs`; resolves on exit. */
async function kill(child: ChildProcess, exited: Promise<void>, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.ref(); // keep Node alive until the exit is observed
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** The chain id answered at `url`, or undefined if nothing answers (yet). */
async function probeChainId(url: string): Promise<number | undefined> {
  const result = await call(url, 'eth_chainId', []);
  return typeof result === 'string' ? Number.parseInt(result, 16) : undefined;
}

async function rpcOk(url: string, method: string, params: unknown[]): Promise<boolean> {
  return (await call(url, method, params)) !== undefined;
}

/** One JSON-RPC call; the result (null included), or undefined on any failure. */
async function call(url: string, method: string, params: unknown[]): Promise<unknown> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: AbortSignal.timeout(1_000),
    });
    const body = (await response.json()) as { result?: unknown };
    return 'result' in body ? body.result : undefined;
  } catch {
    return undefined;
  }
}

const handedOut = new Set<number>();

/** A port the kernel just reported free, never one handed out earlier by this process. */
async function freePort(): Promise<number> {
  for (;;) {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, HOST, resolve);
    });
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// --- no orphans: kill live instances when this process goes away ---------------------------------

const live = new Set<ChildProcess>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function killAllNow(): void {
  for (const child of live) {
    // Synchronous: the only thing an exit handler can do. anvil dumps --state on SIGTERM by itself.
    child.kill('SIGTERM');
  }
  live.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  // Someone else handles this signal (e.g. the sandbox's graceful stop): leave it to them.
  if (process.listenerCount(signal) > 1) return;
  killAllNow();
  uninstallHooks();
  process.kill(process.pid, signal); // default action again: terminate as if we were never here
}

function installHooks(): void {
  process.on('exit', killAllNow);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function uninstallHooks(): void {
  process.off('exit', killAllNow);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

function track(child: ChildProcess): void {
  if (live.size === 0) installHooks();
  live.add(child);
  child.once('exit', () => {
    if (live.delete(child) && live.size === 0) uninstallHooks();
  });
  child.once('error', () => {
    if (live.delete(child) && live.size === 0) uninstallHooks();
  });
}
