import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.ts';
import { loadConfig } from './load.ts';

/** The problems loadConfig lists for `env`, joined (or '' when it loads). */
async function problemsOf(env: Record<string, string>, file?: string): Promise<string> {
  const error = await loadConfig({ env, file }).catch((e: unknown) => e);
  if (!error || !(error instanceof ConfigError)) return '';
  return error.problems.join('\n');
}

describe('the database section', () => {
  it('runs on the SQLite file `db` when no URL is given, with a pool of 10 and timeouts ready for PostgreSQL', async () => {
    const config = await loadConfig({ env: { KASSA_DB: '/tmp/kassa-x.db' } });
    expect(config.db).toBe('/tmp/kassa-x.db');
    expect(config.database).toEqual({
      lockWaitMs: 5000,
      url: null,
      poolSize: 10,
      connectTimeoutMs: 5000,
      queryTimeoutMs: 30_000,
    });
  });

  it('takes the connect and query timeouts from a config file, 0 for a query without limit, and refuses nonsense', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kassa-cfg-'));
    const file = join(dir, 'kassa.json');
    writeFileSync(file, JSON.stringify({ database: { connectTimeoutMs: 2000, queryTimeoutMs: 0 } }));
    expect((await loadConfig({ file, env: {} })).database).toMatchObject({
      connectTimeoutMs: 2000,
      queryTimeoutMs: 0,
    });
    for (const [field, value] of [
      ['connectTimeoutMs', 0],
      ['connectTimeoutMs', 'soon'],
      ['queryTimeoutMs', -1],
      ['queryTimeoutMs', 1.5],
    ] as const) {
      const bad = join(dir, `${field}-${value}.json`);
      writeFileSync(bad, JSON.stringify({ database: { [field]: value } }));
      expect(await problemsOf({}, bad), `${field} ${value}`).toContain(`database.${field}`);
    }
  });

  it('takes KASSA_DATABASE_URL (postgres:// or postgresql://) and KASSA_DATABASE_POOL_SIZE', async () => {
    for (const url of ['postgres://kassa:pw@db.internal:5432/kassa', 'postgresql://kassa@10.0.0.5/kassa']) {
      const config = await loadConfig({ env: { KASSA_DATABASE_URL: url, KASSA_DATABASE_POOL_SIZE: '4' } });
      expect(config.database.url).toBe(url);
      expect(config.database.poolSize).toBe(4);
    }
  });

  it('reads database.url from a config file, and the environment wins over it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kassa-cfg-')), 'kassa.json');
    writeFileSync(file, JSON.stringify({ database: { url: 'postgres://file@host/a', poolSize: 20 } }));
    const fromFile = await loadConfig({ file, env: {} });
    expect(fromFile.database).toMatchObject({
      url: 'postgres://file@host/a',
      poolSize: 20,
      lockWaitMs: 5000,
    });
    const fromEnv = await loadConfig({ file, env: { KASSA_DATABASE_URL: 'postgres://env@host/b' } });
    expect(fromEnv.database).toMatchObject({ url: 'postgres://env@host/b', poolSize: 20 });
  });

  it('treats an empty KASSA_DATABASE_URL (a blank line of an env file) as unset', async () => {
    const config = await loadConfig({ env: { KASSA_DATABASE_URL: '', KASSA_DATABASE_POOL_SIZE: '' } });
    expect(config.database.url).toBeNull();
    expect(config.database.poolSize).toBe(10);
  });

  it('refuses another scheme or an unparsable URL with a clear error that never repeats the password', async () => {
    for (const url of [
      'mysql://kassa:hunter2secret@db/kassa',
      'sqlite:///data/kassa.db?pw=hunter2secret',
      'postgres//kassa:hunter2secret@db/kassa',
      '/data/kassa.db#hunter2secret',
    ]) {
      const problems = await problemsOf({ KASSA_DATABASE_URL: url });
      expect(problems, url).toContain('database.url: must be a PostgreSQL URL');
      expect(problems, url).toContain('KASSA_DATABASE_URL');
      expect(problems, url).not.toContain('hunter2secret');
    }
  });

  it('refuses a pool size that is not a number, or too small to migrate', async () => {
    expect(await problemsOf({ KASSA_DATABASE_POOL_SIZE: 'ten' })).toContain(
      'KASSA_DATABASE_POOL_SIZE must be a number of connections, got "ten"',
    );
    expect(await problemsOf({ KASSA_DATABASE_POOL_SIZE: '1' })).toContain('database.poolSize');
    expect(await problemsOf({ KASSA_DATABASE_POOL_SIZE: '0' })).toContain('database.poolSize');
  });
});
