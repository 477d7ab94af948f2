import { createHash } from 'node:crypto';
import { ChainHealth } from './chains/health.ts';
import type { ChainAdapter } from './chains/port.ts';
import { createAdapters } from './chains/registry.ts';
import { activeChain } from './config/active-chain.ts';
import { ConfigError } from './config/config-error.ts';
import { type Env, loadConfig, loadSecrets, type Secrets } from './config/load.ts';
import type { Config, ConfigInput } from './config/schema.ts';
import { type CopyReport, copySqliteFileToPg } from './db/copy-database.ts';
import { type MigrationMode, openStore } from './db/open-store.ts';
import type { LockWait } from './db/write-lock.ts';
import type { Chain } from './domain/chains.ts';
import { createKeyRing, type KeyRing } from './keys/key-ring.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { createCryptoBox } from './lib/crypto-box.ts';
import { createLogger, type Logger } from './lib/logger.ts';
import { adapterFunding } from './services/chain-funding.ts';
import type { Deps } from './services/deps.ts';

export interface BootstrapOptions {
  configFile?: string;
  env?: Env;
  overrides?: ConfigInput | Record<string, unknown>;
  /** Secrets the command cannot run without. */
  need?: { mnemonic?: boolean; masterKey?: boolean };
  /** `if-new` applies migrations to a new database (kassa start); `require` refuses pending ones. */
  migrations?: MigrationMode;
  /** Log to stdout (servers) or stderr (commands whose stdout is data). */
  logTo?: 1 | 2;
  logger?: Logger;
  clock?: Clock;
  /** Build chain adapters (no network I/O yet) and check payouts against the hot wallets. */
  chains?: boolean;
  /** Checkpoint the WAL on a thread, not inside commits, while the process writes a lot (servers). */
  walCheckpointer?: boolean;
  /**
   * How database writes wait for a lock another process holds: `async` for servers (never more
   * than ~40 ms on the event loop, then asynchronously; db/write-lock.ts), `blocking` (the default)
   * for one-shot commands.
   */
  lockWait?: LockWait;
}

/** A short public fingerprint of the operator keys, to catch a database opened with another mnemonic. */
export function keyFingerprint(keys: KeyRing): string {
  return createHash('sha256')
    .update(['evm', 'tron', 'sui'].map((f) => keys.depositAddress(f as 'evm', 0)).join('|'))
    .digest('hex')
    .slice(0, 16);
}

/** The configuration and the secrets, every problem of both collected into one ConfigError. */
async function loadSettings(
  options: Pick<BootstrapOptions, 'configFile' | 'env' | 'overrides' | 'need'>,
): Promise<{ config: Config; secrets: Secrets }> {
  const env = options.env ?? process.env;
  const problems: string[] = [];
  let config: Config | null = null;
  let secrets: Secrets | null = null;
  try {
    config = await loadConfig({ file: options.configFile, env, overrides: options.overrides });
  } catch (e) {
    if (e instanceof ConfigError) problems.push(...e.problems);
    else throw e;
  }
  try {
    secrets = loadSecrets(env, options.need ?? {});
  } catch (e) {
    if (e instanceof ConfigError) problems.push(...e.problems);
    else throw e;
  }
  if (problems.length > 0 || !config || !secrets) throw new ConfigError(problems);
  return { config, secrets };
}

/**
 * Builds the dependencies of a command: configuration (defaults ← file ← environment), secrets,
 * database (SQLite, or PostgreSQL when `database.url` is set; migrated as asked, checked against the
 * operator keys), key ring and secret box. Every configuration problem is collected and thrown at
 * once as ConfigError; nothing is half-started.
 */
export async function bootstrap(options: BootstrapOptions = {}): Promise<Deps> {
  const { config, secrets } = await loadSettings(options);
  const logger = options.logger ?? createLogger({ level: config.logLevel, destination: options.logTo ?? 1 });
  const keys = secrets.mnemonic ? createKeyRing(secrets.mnemonic) : null;
  const opened = await openStore(config, {
    migrations: options.migrations ?? 'require',
    logger,
    lockWait: options.lockWait,
    walCheckpointer: options.walCheckpointer,
    keyFingerprint: keys ? keyFingerprint(keys) : null,
  });
  try {
    const adapters = options.chains ? await createAdapters(config, logger) : new Map<Chain, ChainAdapter>();
    const nativeOf = (chain: Chain) => {
      const native = activeChain(config, chain).tokens.find((t) => t.contract === null);
      return native ? { chain, ...native } : null;
    };
    return {
      config,
      db: opened.store,
      database: { engine: opened.engine, name: opened.name },
      clock: options.clock ?? systemClock,
      logger,
      box: secrets.masterKey ? createCryptoBox(secrets.masterKey) : null,
      keys,
      payoutFunding: options.chains ? adapterFunding(adapters, nativeOf) : null,
      adapters,
      health: new ChainHealth(),
      async close() {
        await opened.close();
        logger.flush?.();
      },
    };
  } catch (e) {
    await opened.close();
    throw e;
  }
}

/**
 * `kassa db copy --to URL`: copies the configured SQLite database (`db`, whatever `database.url`
 * says) into the empty PostgreSQL database at `to`, all of it or nothing (db/copy-database.ts).
 * Kassa must be stopped first: what it writes after the copy stays in SQLite.
 */
export async function copyDatabase(
  options: Pick<BootstrapOptions, 'configFile' | 'env'> & { to: string },
): Promise<CopyReport> {
  const { config } = await loadSettings(options);
  return copySqliteFileToPg(config.db, options.to);
}
