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

/** The oldest PostgreSQL Kassa runs on (server_version_num of 15.0). */
const OLDEST = 150000;

/**
 * Asks the server at `url` for its version, so that a server that is down, a wrong password or a
 * missing database stops the command with a clear ConfigError naming the URL with its password
 * hidden (the pool connects lazily: without this the first real query would fail somewhere less
 * clear), and so does a server older than PostgreSQL 15.
 */
export async function reachPg(db: PgDb, url: string): Promise<void> {
  let version: number;
  try {
    const r = await db.$client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v");
    version = Number(r.rows[0]?.v);
  } catch (error) {
    const password = passwordOf(url);
    const reason = String((error as Error).message ?? error);
    throw new ConfigError([
      `cannot reach the PostgreSQL database ${describeUrl(url)}: ${password ? reason.split(password).join('***') : reason} (check database.url / KASSA_DATABASE_URL, and that the server is up)`,
    ]);
  }
  if (!(version >= OLDEST))
    throw new ConfigError([
      `the PostgreSQL server of ${describeUrl(url)} is version ${Math.floor(version / 10000)}: Kassa needs PostgreSQL 15 or newer`,
    ]);
}
