import { parseArgs } from 'node:util';
import { UsageError } from './cli/output.ts';
import type { LoadWorker } from './cli/run.ts';
import { ConfigError } from './config/config-error.ts';
import { AppError } from './domain/errors.ts';

const USAGE = `Usage: kassa <command> [options]

  sandbox [--port 8180] [--data ./data]   everything on local devnets (what npm start runs)
  demo [--chain ETH] [--symbol USDT] [--amount 10.00]   a payment and a payout against the sandbox
  start                      API and worker in one process (small operators)
  api | worker               the two halves as separate processes
  migrate                    apply database migrations (SQLite, or PostgreSQL with KASSA_DATABASE_URL)
  db copy --to postgres://…  copy the SQLite database into an empty PostgreSQL one (stop Kassa first)
  secrets generate --out DIR   a new mnemonic and master key in files only the owner can read
  merchant create --kind V2|V3 [--name N] [--callback-url URL] [--compat none|xpay [--import-secrets FILE|-]]
  merchant list | rotate-token ID | set-callback ID --url URL|--clear | set-compat ID none|xpay | disable ID
  token add --chain C --symbol S --contract A --decimals D
  token list [--chain C]
  webhooks list [--order ID] [--merchant ID] [--failed] [--json] | resend EVENT_ID | test --merchant ID
  wallets [--json]           hot wallet of each chain and its balances (fund these for payouts)
  deposits unattributed [--chain C] [--json]   payments no order took (late, wrong token)
  admin create-user --email E [--role admin|viewer] --password-stdin   a dashboard user (password on stdin)
  admin users | set-password --email E --password-stdin | reset-totp --email E | remove-user --email E
  payouts list [--merchant M] [--status S] [--stuck] [--awaiting-approval] [--json]
  payouts approve ID | reject ID --reason TEXT | retry ID | fail ID --reason TEXT  [--merchant M]
  payouts pause [--chain C] | resume [--chain C]   stop or restart signing (requests still queue)
  sweeps plan [--chain C] [--json]   what would be swept now, with fees, without doing it
  sweeps run [--chain C]             one sweeping pass now (deposits → hot wallet or treasury)
  sweeps list [--status S] [--chain C] [--json] | costs [--json]   sweeps, and what the operator paid
  ledger balances [--merchant M] [--json] | entries --merchant M [--json]
  ledger adjust --merchant M --chain C --symbol S --amount ±X --reason TEXT
  reconcile [--chain C] [--json] [--all] [--accept]   every address's balance on chain against the records

Every command takes --config FILE (JSON or TS, merged over wrangler-free.config.ts); commands log
only errors unless --verbose or --log-level L (or KASSA_LOG_LEVEL) asks for more.
Secrets come from the environment: KASSA_MNEMONIC(_FILE), KASSA_MASTER_KEY(_FILE).
KASSA_DATABASE_URL=postgres://user:password@host:5432/db runs every command on PostgreSQL 15+.`;

const OPTIONS = {
  config: { type: 'string' },
  kind: { type: 'string' },
  name: { type: 'string' },
  'callback-url': { type: 'string' },
  compat: { type: 'string' },
  'import-secrets': { type: 'string' },
  url: { type: 'string' },
  to: { type: 'string' },
  clear: { type: 'boolean' },
  chain: { type: 'string' },
  symbol: { type: 'string' },
  contract: { type: 'string' },
  decimals: { type: 'string' },
  json: { type: 'boolean' },
  order: { type: 'string' },
  failed: { type: 'boolean' },
  merchant: { type: 'string' },
  port: { type: 'string' },
  data: { type: 'string' },
  out: { type: 'string' },
  amount: { type: 'string' },
  reason: { type: 'string' },
  status: { type: 'string' },
  stuck: { type: 'boolean' },
  'awaiting-approval': { type: 'boolean' },
  'log-level': { type: 'string' },
  verbose: { type: 'boolean' },
  all: { type: 'boolean' },
  accept: { type: 'boolean' },
  email: { type: 'string' },
  role: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `--amount -5` as `--amount=-5`: parseArgs would take a negative amount for an option. */
function signedAmounts(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const next = argv[i + 1];
    if (argv[i] === '--amount' && next !== undefined && /^-\d/.test(next)) {
      out.push(`--amount=${next}`);
      i++;
    } else out.push(argv[i] as string);
  }
  return out;
}

/**
 * The `kassa` CLI. Exit codes: 0 ok, 1 failure, 2 bad usage or configuration. `loadWorker` brings in
 * the worker for `start`, `worker` and `sandbox` (the entry points pass workers/process.ts).
 */
export async function main(argv: string[], loadWorker: LoadWorker): Promise<void> {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: signedAmounts(argv), options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  const [command, ...rest] = parsed.positionals;
  const flags = parsed.values as Record<string, string | boolean | undefined>;
  if (!command || flags.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  try {
    switch (command) {
      case 'start':
      case 'api':
      case 'worker':
        await (await import('./cli/run.ts')).runCommand(command, flags, loadWorker);
        return;
      case 'migrate':
        await (await import('./cli/migrate.ts')).migrateCommand(flags);
        return;
      case 'db':
        await (await import('./cli/db-copy.ts')).dbCommand(rest, flags);
        return;
      case 'merchant':
        await (await import('./cli/merchant.ts')).merchantCommand(rest, flags);
        return;
      case 'sandbox':
        await (await import('./cli/sandbox.ts')).sandboxCommand(flags, loadWorker);
        return;
      case 'demo':
        await (await import('./cli/demo.ts')).demoCommand(flags);
        return;
      case 'secrets':
        await (await import('./cli/secrets.ts')).secretsCommand(rest, flags);
        return;
      case 'wallets':
        await (await import('./cli/wallets.ts')).walletsCommand(flags);
        return;
      case 'deposits':
        await (await import('./cli/deposits.ts')).depositsCommand(rest, flags);
        return;
      case 'token':
        await (await import('./cli/token.ts')).tokenCommand(rest, flags);
        return;
      case 'admin':
        await (await import('./cli/admin.ts')).adminCommand(rest, flags);
        return;
      case 'payouts':
        await (await import('./cli/payouts.ts')).payoutsCommand(rest, flags);
        return;
      case 'sweeps':
        await (await import('./cli/sweeps.ts')).sweepsCommand(rest, flags);
        return;
      case 'ledger':
        await (await import('./cli/ledger.ts')).ledgerCommand(rest, flags);
        return;
      case 'webhooks':
        await (await import('./cli/webhooks.ts')).webhooksCommand(rest, flags);
        return;
      case 'reconcile':
        await (await import('./cli/reconcile.ts')).reconcileCommand(flags);
        return;
      default:
        throw new UsageError(`Unknown command ${command}.`);
    }
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    if (e instanceof UsageError) {
      process.stderr.write(`${e.message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    if (e instanceof AppError) {
      process.stderr.write(`${e.detail ?? e.code}\n`);
      process.exit(1);
    }
    throw e;
  }
}
