import { bootstrap } from '../bootstrap.ts';
import { isChain } from '../domain/chains.ts';
import { reconcile } from '../services/reconcile/reconcile.ts';
import type { HoldingLine, ReconcileReport } from '../services/reconcile/report.ts';
import { commandLogger, printJson, printTable, UsageError } from './output.ts';

/**
 * `kassa reconcile [--chain C] [--json] [--all] [--accept]`: reads every deposit address and hot
 * wallet from the chain and compares it with the records (README, "Reconciliation"). Prints the
 * totals per token, every difference with the records involved, and each merchant's ledger against
 * the funds on its deposit addresses; `--all` lists every address. Exit code 0 when nothing is
 * unexplained and every chain was read, 1 otherwise. `--accept` takes each hot wallet's float as it
 * is now (after a withdrawal the operator made on purpose).
 */
export async function reconcileCommand(flags: Record<string, string | boolean | undefined>): Promise<void> {
  const chain = typeof flags.chain === 'string' ? flags.chain.toUpperCase() : undefined;
  if (chain !== undefined && !isChain(chain)) throw new UsageError(`Unknown chain ${flags.chain}.`);
  const rt = await bootstrap({
    configFile: flags.config as string | undefined,
    need: { mnemonic: true },
    chains: true,
    logTo: 2,
    logger: commandLogger(flags),
  });
  try {
    if (chain !== undefined && !rt.adapters.has(chain))
      throw new UsageError(`${chain} is not enabled (set KASSA_RPC_${chain} or enable it in the config).`);
    const report = await reconcile(rt, rt.adapters, {
      ...(chain ? { chain } : {}),
      accept: flags.accept === true,
      all: flags.all === true,
    });
    if (flags.json) printJson(report);
    else printReport(report);
    if (!report.ok) process.exitCode = 1;
  } finally {
    await rt.close();
  }
}

/** One address and token as a table row. */
const holdingRow = (d: HoldingLine) => ({
  status: d.status,
  chain: d.chain,
  address: d.address,
  role: d.role,
  token: d.symbol,
  expected: d.expected,
  actual: d.actual,
  difference: d.difference,
  order: d.orderId ?? '',
});

/** Records printed per difference (the newest); --json has more. */
const TEXT_RECORDS = 20;

function printReport(r: ReconcileReport): void {
  const out = (line = '') => process.stdout.write(`${line}\n`);
  out(
    `Reconciliation ${r.id}: ${r.addresses} addresses; ${r.unexplained} unexplained, ${r.inFlight} in flight, ${r.unscanned} not yet scanned.`,
  );
  for (const c of r.chains) {
    if (c.error) out(`${c.chain}: NOT CHECKED: ${c.error}`);
    else
      out(
        `${c.chain}: ${c.addresses} addresses as of block ${c.atHeight} (head ${c.head}, scanned to ${c.scannedHeight ?? 'never'}), hot wallet ${c.hotWallet}`,
      );
  }
  out('\nTokens');
  printTable(
    r.tokens.map((t) => ({
      chain: t.chain,
      token: t.symbol,
      'on deposits': t.onDeposits,
      expected: t.expectedOnDeposits,
      'hot wallet': t.onHotWallet,
      treasury: t.sweptToTreasury,
      'owed to merchants': t.owedToMerchants,
      cover: t.cover,
      unexplained: t.unexplained,
    })),
  );
  out('\nDifferences');
  printTable(r.differences.map(holdingRow));
  for (const d of r.differences) {
    out(`\n${d.status} ${d.chain} ${d.address} ${d.symbol}: records involved`);
    if (d.float !== undefined) out(`  float now ${d.float}, accepted before ${d.previousFloat ?? '(none)'}`);
    if (d.records.length === 0) out('  (none: Kassa recorded nothing moving this token here)');
    const shown = d.records.slice(-TEXT_RECORDS);
    const earlier = d.records.length - shown.length + (d.recordsOmitted ?? 0);
    if (earlier > 0) out(`  … ${earlier} earlier records (the newest follow)`);
    for (const m of shown)
      out(
        `  ${m.kind.padEnd(20)} ${m.amount.padStart(14)}  ${m.txHash}${m.orderId ? `  order ${m.orderId}` : ''}${m.inFlight ? '  (in flight)' : ''}${m.feeUnknown ? '  (fee unknown)' : ''}`,
      );
  }
  if (r.holdings) {
    out('\nEvery address');
    printTable(r.holdings.map(holdingRow));
  }
  out('\nMerchants (ledger against their collections’ funds still on deposit addresses)');
  printTable(
    r.merchants.map((m) => ({
      merchant: m.merchantId,
      chain: m.chain,
      token: m.symbol,
      available: m.available,
      frozen: m.frozen,
      'on deposit addresses': m.onDepositAddresses,
    })),
  );
}
