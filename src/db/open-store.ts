import { ConfigError } from '../config/config-error.ts';
import type { Config } from '../config/schema.ts';
import type { Logger } from '../lib/logger.ts';
import { openDatabase } from './client.ts';
import { applyMigrations, hasPendingMigrations, isNewDatabase } from './migrate.ts';
import { closePg, describeUrl, openPg } from './pg/client.ts';
import { appliedPgCount, applyPgMigrations, hasPendingPgMigrations } from './pg/migrate.ts';
import { reachPg } from './pg/reach.ts';
import { createPgStore } from './pg-store.ts';
import { createSqliteStore } from './sqlite-store.ts';
import type { Store } from './store.ts';
import { startWalCheckpointer } from './wal-checkpointer.ts';
import { configureLockWait, type LockWait } from './write-lock.ts';

// The composition root's half that knows both engines: which one the configuration names, opened,
// migrated as the command asks, and closed again. Nothing above it knows which engine it got.

/** What to do about migrations: `if-new` sets up a new database (kassa start); `require` refuses pending ones. */
export type MigrationMode = 'apply' | 'if-new' | 'require' | 'skip';

export interface OpenStoreOptions {
  migrations: MigrationMode;
  logger: Logger;
  /** SQLite: how writes wait for a lock another process holds, once start-up is done (db/write-lock.ts). */
  lockWait?: LockWait;
  /** SQLite: checkpoint the WAL on a thread (servers). */
  walCheckpointer?: boolean;
  /**
   * The operator keys' public fingerprint (bootstrap's keyFingerprint): stored in the settings the
   * first time, compared every time after, so a database is never run with another mnemonic.
   */
  keyFingerprint?: string | null;
}

/** An open database behind the Store port. */
export interface OpenedStore {
  store: Store;
  engine: 'sqlite' | 'postgres';
  /** The database as logs and errors name it: the SQLite path, or the URL with its password hidden. */
  name: string;
  /** Whether it holds Kassa's tables (false only for a new database left alone under `skip`). */
  migrated: boolean;
  /** Releases it: the SQLite connection at once, the PostgreSQL pool once its connections are back. */
  close(): Promise<void>;
}

/** One engine's migrations, as migrateAsAsked drives them. */
interface Migrator {
  isNew(): Promise<boolean>;
  hasPending(): Promise<boolean>;
  apply(): Promise<number>;
}

/**
 * Applies or checks migrations as `mode` says, the same for both engines; returns whether the
 * database holds Kassa's tables afterwards. Pending migrations under `require` stop the command
 * with what to run.
 */
async function migrateAsAsked(
  m: Migrator,
  mode: MigrationMode,
  name: string,
  logger: Logger,
): Promise<boolean> {
  const isNew = await m.isNew();
  if (mode === 'apply' || (mode === 'if-new' && isNew)) {
    const applied = await m.apply();
    if (applied > 0) logger.info({ applied, db: name }, 'database migrated');
    return true;
  }
  if (mode !== 'skip' && (await m.hasPending())) {
    throw new ConfigError([
      isNew
        ? `the database ${name} is not set up yet: run \`kassa migrate\` first`
        : `the database ${name} needs migrations: back it up, then run \`kassa migrate\``,
    ]);
  }
  return !isNew;
}

/**
 * Opens the database the configuration names: PostgreSQL when `database.url` is set (a pool of
 * `database.poolSize`), else the SQLite file `db`; migrates it as `options.migrations` says. A
 * PostgreSQL server that cannot be reached or refuses the login stops the command with a clear
 * error that names the URL without its password.
 */
export async function openStore(config: Config, options: OpenStoreOptions): Promise<OpenedStore> {
  return config.database.url
    ? openPostgres(config.database.url, config, options)
    : openSqlite(config, options);
}

async function openPostgres(url: string, config: Config, options: OpenStoreOptions): Promise<OpenedStore> {
  const name = describeUrl(url);
  const { poolSize, connectTimeoutMs, queryTimeoutMs } = config.database;
  const db = openPg(url, { max: poolSize, connectTimeoutMs, queryTimeoutMs });
  try {
    await reachPg(db, url);
    const migrated = await migrateAsAsked(
      {
        isNew: async () => (await appliedPgCount(db)) === 0,
        hasPending: () => hasPendingPgMigrations(db),
        apply: async () => {
          // a migration may take long on a large database: its own pool, without the query timeout,
          // and without the idle-in-transaction one: the transaction that holds the migration lock
          // waits while the migration runs on the pool's other connection
          const migrator = openPg(url, {
            max: 2,
            connectTimeoutMs,
            applicationName: 'kassa migrate',
            idleInTransactionMs: 0,
          });
          try {
            return await applyPgMigrations(migrator);
          } finally {
            await closePg(migrator);
          }
        },
      },
      options.migrations,
      name,
      options.logger,
    );
    const store = createPgStore(db);
    if (migrated) await checkKeys(store, options.keyFingerprint);
    return { store, engine: 'postgres', name, migrated, close: () => closePg(db) };
  } catch (error) {
    await closePg(db);
    throw error;
  }
}

/** Stores the key fingerprint in a database that has none, and refuses one made with other keys. */
async function checkKeys(store: Store, fingerprint: string | null | undefined): Promise<void> {
  if (!fingerprint) return;
  const stored =
    (await store.getSetting('key_fingerprint')) ??
    (await store.setSettingOnce('key_fingerprint', fingerprint));
  if (stored !== fingerprint) {
    throw new ConfigError([
      'KASSA_MNEMONIC is not the mnemonic this database was created with; its deposit addresses belong to the other one',
    ]);
  }
}

async function openSqlite(config: Config, options: OpenStoreOptions): Promise<OpenedStore> {
  const { logger } = options;
  // Start-up (migrations, the key check) waits for a lock as a command does; serving switches to
  // `lockWait` once it is done.
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
    const migrated = await migrateAsAsked(
      {
        isNew: async () => isNewDatabase(db),
        hasPending: async () => hasPendingMigrations(db),
        apply: async () => applyMigrations(db),
      },
      options.migrations,
      config.db,
      logger,
    );
    const store = createSqliteStore(db);
    if (migrated) await checkKeys(store, options.keyFingerprint);
    if (options.lockWait === 'async') configureLockWait(db.$client, 'async', config.database.lockWaitMs);
    const checkpointer = options.walCheckpointer ? startWalCheckpointer(db, config.db, logger) : null;
    return {
      store,
      engine: 'sqlite',
      name: config.db,
      migrated,
      // Synchronous underneath, so a caller that does not wait (a test removing the folder next) finds it closed.
      close() {
        void checkpointer?.stop();
        db.$client.close();
        return Promise.resolve();
      },
    };
  } catch (error) {
    db.$client.close();
    throw error;
  }
}
