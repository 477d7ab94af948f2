import { bootstrap } from '../bootstrap.ts';
import { commandLogger } from './output.ts';

/**
 * `kassa migrate`: applies pending migrations to the configured database (SQLite, or PostgreSQL when
 * KASSA_DATABASE_URL is set); run it before api and worker. On PostgreSQL concurrent runs wait for
 * each other (an advisory lock); on SQLite run one at a time.
 */
export async function migrateCommand(flags: Record<string, string | boolean | undefined>): Promise<void> {
  const rt = await bootstrap({
    configFile: flags.config as string | undefined,
    migrations: 'apply',
    logTo: 2,
    logger: commandLogger(flags),
  });
  process.stderr.write(`database ${rt.database.name} is up to date\n`);
  await rt.close();
}
