import Database from 'better-sqlite3';
import pg from 'pg';

// Every row of every table of a database, as text, to compare two databases value for value
// (`kassa db copy`'s tests): integers as their digits (never through a float), flags as 0/1.

/** One row as canonical text: columns by name, each value through `value`. */
function canonical(row: Record<string, unknown>, value: (v: unknown) => unknown): string {
  return JSON.stringify(
    Object.keys(row)
      .sort()
      .map((k) => [k, value(row[k])]),
  );
}

/** Kassa's tables in the SQLite file (not drizzle's bookkeeping), each a sorted list of rows. */
export function sqliteRows(file: string): Map<string, string[]> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '__drizzle_migrations'",
      )
      .pluck()
      .all() as string[];
    return new Map(
      tables.map((t) => {
        const rows = db.prepare(`SELECT * FROM "${t}"`).safeIntegers(true).all() as Record<string, unknown>[];
        return [t, rows.map((r) => canonical(r, (v) => (typeof v === 'bigint' ? v.toString() : v))).sort()];
      }),
    );
  } finally {
    db.close();
  }
}

/** int8 as the text PostgreSQL sends, whatever parser the process installed globally. */
const exactTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? (value: string) => value : pg.types.getTypeParser(oid, format),
} as pg.CustomTypesConfig;

/** The tables of the public schema of the PostgreSQL database at `url`, each a sorted list of rows. */
export async function pgRows(url: string): Promise<Map<string, string[]>> {
  const client = new pg.Client({ connectionString: url, types: exactTypes });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    const out = new Map<string, string[]>();
    for (const { name } of tables.rows) {
      const rows = (await client.query(`SELECT * FROM "${name}"`)).rows as Record<string, unknown>[];
      out.set(
        name,
        rows.map((r) => canonical(r, (v) => (typeof v === 'boolean' ? (v ? '1' : '0') : v))).sort(),
      );
    }
    return out;
  } finally {
    await client.end();
  }
}
