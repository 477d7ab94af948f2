import { bootstrap } from '../bootstrap.ts';
import { commandLogger } from './output.ts';

/** `kassa migrate`: applies pending migrations; run once before api and worker, never concurrently. */
export async function migrateCommand(flags: Record<string, string | boolean | undefined>): Promise<void> {
  const rt = await bootstrap({
    configFile: flags.config as string | undefined,
    migrations: 'apply',
    logTo: 2,
    logger: commandLogger(flags),
  });
  process.stderr.write(`database ${rt.config.db} is up to date\n`);
  rt.close();
}
