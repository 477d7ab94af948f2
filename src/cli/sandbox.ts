import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { bootstrap } from '../bootstrap.ts';
import { SANDBOX_CUSTOMER, type SandboxInfo, startSandboxChains } from '../devnet/sandbox.ts';
import { EVM_CHAINS } from '../domain/chains.ts';
import { createKeyRing } from '../keys/key-ring.ts';
import { createLogger } from '../lib/logger.ts';
import { createAdminUser, describeAdminUsers, removeAdminUser } from '../services/admin-accounts.ts';
import { createMerchant, describeMerchants } from '../services/manage-merchants.ts';
import { resetChainCheckpoint } from '../services/reset-chain-checkpoint.ts';
import { UsageError } from './output.ts';
import { type LoadWorker, onShutdown } from './run.ts';
import { startApiServer } from './serve.ts';

function writePrivate(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/** The sandbox's own operator secrets, made once and kept in the data folder (devnet money only). */
function sandboxSecrets(dataDir: string): { mnemonic: string; masterKey: string } {
  const file = join(dataDir, 'sandbox-secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const secrets = { mnemonic: generateMnemonic(wordlist, 128), masterKey: randomBytes(32).toString('hex') };
  writePrivate(file, `${JSON.stringify(secrets, null, 2)}\n`);
  return secrets;
}

/**
 * The sandbox's port: `--port`, else `PORT` (as the README promises for every command), else 8180.
 * Port 0 is refused: the banner, `paymentUrl` and the webhook receiver (the next port) need it known.
 */
function sandboxPort(flag: string | undefined, env: string | undefined): number {
  const text = flag ?? env ?? '8180';
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65534)
    throw new UsageError(`The sandbox port must be a number from 1 to 65534, got "${text}".`);
  return port;
}

/**
 * `kassa sandbox`: Kassa on local devnets for a first try — anvil for the EVM chains with test USDT
 * and USDC, the fake TRON and Sui nodes, SQLite in `./data`, a demo merchant, the dashboard at /admin
 * of the admin listener with a sandbox user, API and worker in one process on port 8180 (127.0.0.1
 * only). Restarting
 * keeps the database and the EVM chains; Ctrl-C stops everything.
 */
export async function sandboxCommand(
  flags: Record<string, string | boolean | undefined>,
  loadWorker: LoadWorker,
): Promise<void> {
  const started = performance.now();
  const dataDir = resolve((flags.data as string | undefined) ?? './data');
  const port = sandboxPort(flags.port as string | undefined, process.env.PORT);
  mkdirSync(dataDir, { recursive: true });
  const secrets = sandboxSecrets(dataDir);
  const keys = createKeyRing(secrets.mnemonic);
  const hotWallets = Object.fromEntries(
    ['TRON', 'SUI', ...EVM_CHAINS].map((c) => [c, keys.hotWallet(c as 'ETH').address]),
  );
  process.stdout.write(
    'Starting local chains (anvil for ETH, BSC, POLYGON, AVAX_C_CHAIN; fake TRON and Sui nodes)…\n',
  );
  const chains = await startSandboxChains({ dataDir, hotWallets });
  const baseUrl = `http://localhost:${port}`;
  const logger = createLogger({ level: (flags['log-level'] as string | undefined) ?? 'warn' });
  let rt: Awaited<ReturnType<typeof bootstrap>>;
  try {
    rt = await bootstrap({
      env: {
        KASSA_DB: join(dataDir, 'sandbox.db'),
        KASSA_MNEMONIC: secrets.mnemonic,
        KASSA_MASTER_KEY: secrets.masterKey,
        KASSA_ADMIN_PORT: process.env.KASSA_ADMIN_PORT,
        KASSA_ADMIN_HOST: process.env.KASSA_ADMIN_HOST,
      },
      overrides: {
        ...chains.config,
        port,
        host: '127.0.0.1',
        baseUrl,
        worker: { expireIntervalMs: 1000, payoutIntervalMs: 1000 },
        // The demo merchant's receiver listens on 127.0.0.1 (refused in production).
        webhooks: { allowPrivateTargets: true },
      },
      migrations: 'apply',
      chains: true,
      walCheckpointer: true,
      lockWait: 'async',
      logger,
    });
  } catch (error) {
    await chains.stop();
    throw error;
  }
  for (const chain of ['TRON', 'SUI']) if (chains.chains[chain]) await resetChainCheckpoint(rt, chain);

  const infoFile = join(dataDir, 'sandbox.json');
  const previous = existsSync(infoFile) ? (JSON.parse(readFileSync(infoFile, 'utf8')) as SandboxInfo) : null;
  const webhookUrl = `http://127.0.0.1:${port + 1}/webhooks`;
  let merchant = previous?.merchant;
  let fresh = false;
  if (!merchant || !(await describeMerchants(rt)).some((m) => m.merchantId === merchant?.merchantId)) {
    const created = await createMerchant(rt, { kind: 'V3', name: 'Demo shop', callbackUrl: webhookUrl });
    merchant = { merchantId: created.merchantId, token: created.token, webhookSecret: created.webhookSecret };
    fresh = true;
  }
  let dashboard = previous?.dashboard;
  if (!dashboard || !(await describeAdminUsers(rt)).some((u) => u.email === dashboard?.email)) {
    dashboard = {
      url: '',
      email: 'admin@sandbox.local',
      password: randomBytes(12).toString('base64url'),
    };
    await removeAdminUser(rt, dashboard.email).catch(() => {});
    await createAdminUser(rt, { email: dashboard.email, role: 'admin', password: dashboard.password });
  }
  const api = await startApiServer(rt, { addressPool: 20 });
  const info: SandboxInfo = {
    apiUrl: baseUrl,
    webhookUrl,
    merchant,
    chains: chains.chains,
    customer: SANDBOX_CUSTOMER,
    // on the admin listener (127.0.0.1, KASSA_ADMIN_PORT), like every operator's dashboard
    dashboard: { ...dashboard, url: `${api.adminUrl}/admin` },
  };
  writePrivate(infoFile, `${JSON.stringify(info, null, 2)}\n`);

  const worker = await (await loadWorker())(rt);
  onShutdown(async () => {
    await api.close();
    await worker.stop();
    await chains.stop();
    await rt.close();
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(banner({ info, fresh, seconds, dataDir }));
}

function banner(input: { info: SandboxInfo; fresh: boolean; seconds: string; dataDir: string }): string {
  const { info } = input;
  const lines = [
    '',
    `Kassa sandbox is ready in ${input.seconds} s: ${info.apiUrl}`,
    `  data:      ${input.dataDir} (delete it to start over)`,
    `  chains:    ${Object.entries(info.chains)
      .map(([c, x]) => `${c} ${x.rpc}`)
      .join('\n             ')}`,
    `  merchant:  ${info.merchant.merchantId} (V3), webhooks to ${info.webhookUrl}`,
    ...(info.dashboard
      ? [
          `  dashboard: ${info.dashboard.url} (sign in as ${info.dashboard.email}, password ${info.dashboard.password})`,
        ]
      : []),
  ];
  if (input.fresh) {
    lines.push(
      '',
      `The demo merchant was created. Its secrets are shown this once (they are also in ${join(input.dataDir, 'sandbox.json')}):`,
      `  token:          ${info.merchant.token}`,
      `  webhook secret: ${info.merchant.webhookSecret}`,
    );
  }
  lines.push(
    '',
    'Create a collection (paste into a shell):',
    '',
    `  TOKEN=$(node -p "require('${join(input.dataDir, 'sandbox.json')}').merchant.token")`,
    '  ORDER=try-$(date +%s)',
    `  DATA="{\\"amount\\":\\"10.00\\",\\"symbol\\":\\"USDT\\",\\"chain\\":\\"ETH\\",\\"orderId\\":\\"$ORDER\\"}"`,
    `  SIGN=$(printf '%s' "$DATA" | openssl dgst -sha256 -hmac "$TOKEN" -hex | sed 's/^.*= //')`,
    `  curl -s ${info.apiUrl}/v1/order/createCollection -H 'content-type: application/json' \\`,
    `    -d "{\\"sign\\":\\"$SIGN\\",\\"timestamp\\":$(date +%s),\\"nonce\\":\\"$(od -An -N8 -tx1 /dev/urandom | tr -d ' \\n')\\",\\"data\\":$DATA}"`,
    '',
    'Or watch a whole payment and a payout happen:  npx kassa demo',
    'Stop with Ctrl-C.',
    '',
  );
  return `${lines.join('\n')}\n`;
}
