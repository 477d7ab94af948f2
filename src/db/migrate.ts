import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import type { Db } from './client.ts';

/** Where the generated migrations live: `drizzle/` at the package root, or beside a bundled build. */
export function migrationsFolder(): string {
  const candidates = [
    process.env.KASSA_MIGRATIONS,
    join(dirname(fileURLToPath(import.meta.url)), '../../drizzle'),
    join(dirname(fileURLToPath(import.meta.url)), 'drizzle'),
    join(process.cwd(), 'drizzle'),
  ];
  for (const c of candidates) if (c && existsSync(join(c, 'meta/_journal.json'))) return c;
  throw new Error('Cannot find the drizzle/ migrations folder (set KASSA_MIGRATIONS).');
}

/** Applies every pending migration; returns how many were applied. Safe to run again. */
export function applyMigrations(db: Db): number {
  const before = appliedCount(db);
  migrate(db, { migrationsFolder: migrationsFolder() });
  return appliedCount(db) - before;
}

/** Whether the database has never been migrated (a new file). */
export function isNewDatabase(db: Db): boolean {
  return appliedCount(db) === 0;
}

function appliedCount(db: Db): number {
  const exists = db.$client
    .prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'")
    .get() as { n: number };
  if (exists.n === 0) return 0;
  return (db.$client.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }).n;
}

/** Whether migrations exist on disk that the database has not applied yet. */
export function hasPendingMigrations(db: Db): boolean {
  const journal = JSON.parse(readFileSync(join(migrationsFolder(), 'meta/_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length > appliedCount(db);
}
