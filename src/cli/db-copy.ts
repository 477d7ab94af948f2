import { copyDatabase } from '../bootstrap.ts';
import { isPostgresUrl } from '../config/database-schema.ts';
import { printJson, printTable, UsageError } from './output.ts';

type Flags = Record<string, string | boolean | undefined>;

const HOW = 'kassa db copy --to postgres://user:password@host:5432/database [--json]';

/**
 * `kassa db copy --to URL`: the configured SQLite database into an empty PostgreSQL database (made
 * with CREATE DATABASE; migrated here if new), every table in one transaction, then each table's
 * row count in both. Stop Kassa first; afterwards set KASSA_DATABASE_URL to the same URL.
 */
export async function dbCommand(rest: string[], flags: Flags): Promise<void> {
  if (rest[0] !== 'copy' || rest.length > 1) throw new UsageError(`kassa db has one command: ${HOW}`);
  const to = flags.to;
  if (typeof to !== 'string' || !isPostgresUrl(to))
    throw new UsageError(`--to must be a PostgreSQL URL (postgres://… or postgresql://…): ${HOW}`);
  const report = await copyDatabase({ configFile: flags.config as string | undefined, to });
  if (flags.json) {
    printJson(report);
    return;
  }
  printTable(report.tables.map((t) => ({ table: t.table, rows: t.rows })));
  process.stdout.write(
    `\ncopied ${report.total} ${report.total === 1 ? 'row' : 'rows'} in ${report.tables.length} tables from ${report.from} to ${report.to};` +
      ' every table has as many rows in PostgreSQL as in SQLite.\n' +
      'Next: set KASSA_DATABASE_URL (or database.url) to that URL and start Kassa; keep the SQLite file as a backup.\n',
  );
}
