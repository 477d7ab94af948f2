import pg from 'pg';

/**
 * One query against the PostgreSQL database at `url`, on a connection of its own: how a test reads
 * what the `kassa` processes under test wrote, from outside them.
 */
export async function pgQuery<T>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}
