import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { migrationsFolder } from '../migrate.ts';
import type { PgDb } from './client.ts';

/** The PostgreSQL migrations: `drizzle/pg/` beside SQLite's (drizzle.pg.config.ts). */
export function pgMigrationsFolder(): string {
  return join(migrationsFolder(), 'pg');
}

/** The key of the advisory lock that lets one `kassa migrate` at a time change the schema. */
const MIGRATION_LOCK = 0x6b617373; // "kass"

/**
 * Applies every pending migration; returns how many were applied. Safe to run again, and safe to
 * run from several processes at once: each waits for a transaction-level advisory lock, so the
 * second finds the work done.
 */
export async function applyPgMigrations(db: PgDb): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    const before = await appliedPgCount(db);
    await migrate(db, { migrationsFolder: pgMigrationsFolder() });
    return (await appliedPgCount(db)) - before;
  });
}

/** Migrations recorded as applied (0 for a new database). */
export async function appliedPgCount(db: PgDb): Promise<number> {
  const table = await db.execute<{ present: string | null }>(
    sql`SELECT to_regclass('drizzle.__drizzle_migrations')::text AS present`,
  );
  if (!table.rows[0]?.present) return 0;
  const rows = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`,
  );
  return Number(rows.rows[0]?.n ?? 0);
}

/** Whether migrations exist on disk that the database has not applied yet. */
export async function hasPendingPgMigrations(db: PgDb): Promise<boolean> {
  const journal = JSON.parse(readFileSync(join(pgMigrationsFolder(), 'meta/_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length > (await appliedPgCount(db));
}
