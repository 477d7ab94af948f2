import { createHash } from 'node:crypto';
import { ChainHealth } from './chains/health.ts';
import type { ChainAdapter } from './chains/port.ts';
import { createAdapters } from './chains/registry.ts';
import { activeChain } from './config/active-chain.ts';
import { ConfigError } from './config/config-error.ts';
import { type Env, loadConfig, loadSecrets } from './config/load.ts';
import type { ConfigInput } from './config/schema.ts';
import { openDatabase } from './db/client.ts';
import { applyMigrations, hasPendingMigrations, isNewDatabase } from './db/migrate.ts';
import { getSetting, setSettingOnce } from './db/repositories/settings.ts';
import { createSqliteStore } from './db/sqlite-store.ts';
import { startWalCheckpointer } from './db/wal-checkpointer.ts';
import { configureLockWait, type LockWait } from './db/write-lock.ts';
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
  migrations?: 'apply' | 'if-new' | 'require' | 'skip';
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

/**
 * Builds the dependencies of a command: configuration (defaults ← file ← environment), secrets,
 * database (migrated as asked), key ring and secret box. Every configuration problem is collected
 * and thrown at once as ConfigError; nothing is half-started.
 */
export async function bootstrap(options: BootstrapOptions = {}): Promise<Deps> {
  const env = options.env ?? process.env;
  const problems: string[] = [];
  let config: Awaited<ReturnType<typeof loadConfig>> | null = null;
  let secrets: ReturnType<typeof loadSecrets> | null = null;
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

  const logger = options.logger ?? createLogger({ level: config.logLevel, destination: options.logTo ?? 1 });
  // Start-up (migrations, the key check) may wait for a lock; serving switches to `lockWait` below.
  const db = openDatabase(config.db, {
    lockWait: 'blocking',
    lockWaitMs: config.database.lockWaitMs,
    onPermissions: ({ folder, tightenedFolder, looseFolder }) => {
      if (tightenedFolder)
        logger.info({ folder, was: tightenedFolder, now: '700' }, 'data folder made private to this user');
      if (looseFolder)
        logger.warn(
          { folder, mode: looseFolder },
          `the data folder is open to other users and is not ours to change: chmod 700 ${folder}`,
        );
    },
  });
  try {
    const mode = options.migrations ?? 'require';
    if (mode === 'apply' || (mode === 'if-new' && isNewDatabase(db))) {
      const applied = applyMigrations(db);
      if (applied > 0) logger.info({ applied, db: config.db }, 'database migrated');
    } else if (mode !== 'skip' && hasPendingMigrations(db)) {
      throw new ConfigError([
        isNewDatabase(db)
          ? `the database ${config.db} is not set up yet: run \`kassa migrate\` first`
          : `the database ${config.db} needs migrations: back it up, then run \`kassa migrate\``,
      ]);
    }
    const keys = secrets.mnemonic ? createKeyRing(secrets.mnemonic) : null;
    if (keys && !isNewDatabase(db)) {
      const fingerprint = keyFingerprint(keys);
      const stored = getSetting(db, 'key_fingerprint') ?? setSettingOnce(db, 'key_fingerprint', fingerprint);
      if (stored !== fingerprint) {
        throw new ConfigError([
          'KASSA_MNEMONIC is not the mnemonic this database was created with; its deposit addresses belong to the other one',
        ]);
      }
    }
    if (options.lockWait === 'async') configureLockWait(db.$client, 'async', config.database.lockWaitMs);
    const adapters = options.chains ? await createAdapters(config, logger) : new Map<Chain, ChainAdapter>();
    const nativeOf = (chain: Chain) => {
      const native = activeChain(config, chain).tokens.find((t) => t.contract === null);
      return native ? { chain, ...native } : null;
    };
    const checkpointer = options.walCheckpointer ? startWalCheckpointer(db, config.db, logger) : null;
    return {
      config,
      db: createSqliteStore(db),
      clock: options.clock ?? systemClock,
      logger,
      box: secrets.masterKey ? createCryptoBox(secrets.masterKey) : null,
      keys,
      payoutFunding: options.chains ? adapterFunding(adapters, nativeOf) : null,
      adapters,
      health: new ChainHealth(),
      close() {
        void checkpointer?.stop();
        db.$client.close();
        logger.flush?.();
      },
    };
  } catch (e) {
    db.$client.close();
    throw e;
  }
}
