/**
 * The server bench/auth-flood.ts floods: the real Kassa API (bootstrap, migrated SQLite, createApp
 * on a real socket) with `merchants` active merchants. argv: merchants, then `limited` (the default
 * failed-authentication limit, 30 per 60 s) or `unlimited` (the limit set out of reach, to measure
 * what an unrefused bad signature costs). Prints one JSON line `{port, pid, merchantId}` when it
 * listens.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { bootstrap } from '../src/bootstrap.ts';
import { createApp } from '../src/http/app.ts';
import { silentLogger } from '../src/lib/logger.ts';
import { createMerchant } from '../src/services/manage-merchants.ts';

const merchants = Number(process.argv[2] ?? 1000);
const limited = process.argv[3] !== 'unlimited';
const dir = mkdtempSync(join(tmpdir(), 'kassa-flood-'));
const rt = await bootstrap({
  env: {
    KASSA_DB: join(dir, 'kassa.db'),
    KASSA_MNEMONIC: 'test test test test test test test test test test test junk',
    KASSA_MASTER_KEY: '33'.repeat(32),
  },
  overrides: limited ? {} : { auth: { failedAttempts: { limit: 1e9, windowSeconds: 1 } } },
  migrations: 'apply',
  lockWait: 'async',
  logger: silentLogger(),
});
let first = '';
for (let i = 0; i < merchants; i++) {
  const m = await createMerchant(rt, { kind: 'V3', name: `m${i}` });
  first ||= m.merchantId;
}
const server = serve({ fetch: createApp(rt).fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`${JSON.stringify({ port: info.port, pid: process.pid, merchantId: first })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
