/**
 * A real worker process for crash tests: bootstraps against KASSA_DB (already migrated), runs the
 * worker with webhook delivery, and prints `ready` on stdout. Config overrides come as JSON in
 * KASSA_TEST_OVERRIDES. Run with `node --import tsx test/helpers/webhook-worker.ts`.
 */
import { bootstrap } from '../../src/bootstrap.ts';
import { deepMerge } from '../../src/config/load.ts';
import { webhookJobs } from '../../workers/jobs/deliver-webhooks.ts';
import { startWorker } from '../../workers/main.ts';

const rt = await bootstrap({
  // Test receivers listen on 127.0.0.1, which production refuses (webhooks.allowPrivateTargets).
  overrides: deepMerge(
    { webhooks: { allowPrivateTargets: true } },
    JSON.parse(process.env.KASSA_TEST_OVERRIDES ?? '{}'),
  ) as Record<string, unknown>,
  need: { masterKey: true },
  migrations: 'require',
  logTo: 2,
});
const worker = await startWorker(rt, [webhookJobs]);
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void worker.stop().then(async () => {
    await rt.close();
    process.exit(0);
  });
});
