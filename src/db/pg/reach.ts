import { ConfigError } from '../../config/config-error.ts';
import { describeUrl, type PgDb } from './client.ts';

/** The password of a connection URL, decoded, or '' (to take it out of a server's error text). */
function passwordOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return '';
  }
}

/**
 * Runs one query on the pool of `url`, so that a server that is down, a wrong password or a missing
 * database stops the command with a clear ConfigError naming the URL with its password hidden (the
 * pool connects lazily: without this the first real query would fail somewhere less clear).
 */
export async function reachPg(db: PgDb, url: string): Promise<void> {
  try {
    await db.$client.query('SELECT 1');
  } catch (error) {
    const password = passwordOf(url);
    const reason = String((error as Error).message ?? error);
    throw new ConfigError([
      `cannot reach the PostgreSQL database ${describeUrl(url)}: ${password ? reason.split(password).join('***') : reason} (check database.url / KASSA_DATABASE_URL, and that the server is up)`,
    ]);
  }
}
