import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import {
  type Chain,
  KassaClient,
  type NotifyOrder,
  verifyWebhook,
} from '../../clients/typescript/src/index.ts';
import { bootstrap } from '../bootstrap.ts';
import { customerAddress, payAsCustomer } from '../devnet/pay-as-customer.ts';
import type { SandboxInfo } from '../devnet/sandbox.ts';
import { parseAmount } from '../domain/money.ts';
import { silentLogger } from '../lib/logger.ts';
import { listSweepViews } from '../services/sweep-reports.ts';
import { UsageError } from './output.ts';

type Flags = Record<string, string | boolean | undefined>;
const say = (line: string) => process.stdout.write(`${line}\n`);

/** Follows an order until a final state, printing every change; resolves with the final order. */
async function follow(client: KassaClient, orderId: string, timeoutMs = 120_000): Promise<NotifyOrder> {
  const end = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const s = await client.getOrder(orderId);
    const tx = s.transaction;
    const confirmations = tx ? `${tx.confirmedNum} confirmation${tx.confirmedNum === 1 ? '' : 's'}` : '';
    const line = [
      `status ${s.status}`,
      tx ? ` (tx ${tx.txid.slice(0, 18)}…, ${confirmations})` : '',
      s.actualAmount ? `, actualAmount ${s.actualAmount}` : '',
      s.reason ? `, ${s.reason}` : '',
    ].join('');
    if (line !== last) say(`  ${line}`);
    last = line;
    if (['SUCCESS', 'FAILED', 'EXPIRED'].includes(s.status)) return s;
    if (Date.now() > end) throw new Error(`${orderId} did not finish within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Follows the sweep of a deposit address in the sandbox's database (what `kassa sweeps list` shows)
 * until it is final, printing each state and its transactions.
 */
async function followSweep(
  dataDir: string,
  chain: string,
  address: string,
  timeoutMs = 120_000,
): Promise<void> {
  say(`Sweep of ${address} to the hot wallet (the worker sweeps paid deposits every 5 s in the sandbox)`);
  const rt = await bootstrap({ env: { KASSA_DB: join(dataDir, 'sandbox.db') }, logger: silentLogger() });
  try {
    const end = Date.now() + timeoutMs;
    let last = '';
    for (;;) {
      const [sweep] = (await listSweepViews(rt, { chain, limit: 50 })).filter((s) => s.address === address);
      if (sweep) {
        const txs = sweep.transactions.map((t) => `${t.role} ${t.txid.slice(0, 12)}… ${t.status}`).join(', ');
        const line = `status ${sweep.status}: ${sweep.amount} ${sweep.symbol}${txs ? ` (${txs})` : ''}`;
        if (line !== last) say(`  ${line}`);
        last = line;
        if (sweep.status === 'final') return;
      }
      if (Date.now() > end) throw new Error(`the deposit was not swept within ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await rt.close();
  }
}

/** A local webhook receiver that verifies each event with the client's verifyWebhook and prints it. */
function startReceiver(info: SandboxInfo) {
  const url = new URL(info.webhookUrl);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        const event = await verifyWebhook(Buffer.concat(chunks), req.headers, info.merchant.webhookSecret);
        const about = event.notifyType === 'WEBHOOK_TEST' ? 'a test' : event.data.orderId;
        say(`  webhook ${event.notifyType} for ${about} (signatures verified)`);
        res.writeHead(200).end();
      } catch (error) {
        say(`  webhook refused: SIGNATURE MISMATCH (${(error as Error).message})`);
        res.writeHead(400).end();
      }
    });
  });
  return new Promise<{ close(): Promise<void> }>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(Number(url.port), url.hostname, () =>
      resolveListen({ close: () => new Promise<void>((r) => server.close(() => r())) }),
    );
  });
}

/**
 * `kassa demo`: against a running `kassa sandbox`, creates a collection through the signed API
 * with the TypeScript client (clients/typescript, so the demo is also the client's example),
 * prints its checkout URL, pays it from the devnet customer, prints each state and webhook until
 * SUCCESS, follows the worker's sweep of the deposit to the hot wallet, then does the same for a
 * payout back to the customer.
 */
export async function demoCommand(flags: Flags): Promise<void> {
  const dataDir = resolve((flags.data as string | undefined) ?? './data');
  let info: SandboxInfo;
  try {
    info = JSON.parse(readFileSync(join(dataDir, 'sandbox.json'), 'utf8'));
  } catch {
    throw new UsageError(
      `No sandbox found in ${dataDir}: start one with \`npm start\` (kassa sandbox) first.`,
    );
  }
  const chainName = String(flags.chain ?? 'ETH').toUpperCase();
  const chain = info.chains[chainName];
  if (!chain)
    throw new UsageError(
      `The sandbox has no chain ${chainName}; it has ${Object.keys(info.chains).join(', ')}.`,
    );
  const symbol = String(flags.symbol ?? (chain.tokens.USDT ? 'USDT' : 'USDC')).toUpperCase();
  const token = chain.tokens[symbol];
  if (!token)
    throw new UsageError(
      `${chainName} has no ${symbol} in the sandbox; it has ${Object.keys(chain.tokens).join(', ')}.`,
    );
  const amount = String(flags.amount ?? '10.00');
  const parsed = parseAmount(amount, token.decimals);
  if (!parsed.ok) throw new UsageError(`--amount ${amount} is not a valid ${symbol} amount`);

  const client = new KassaClient({
    baseUrl: info.apiUrl,
    token: info.merchant.token,
    merchantId: info.merchant.merchantId,
  });
  const receiver = await startReceiver(info);
  try {
    const orderId = `demo-${Date.now()}`;
    say(`Collection ${orderId}: ${amount} ${symbol} on ${chainName}`);
    const created = await client.createCollection({ amount, symbol, chain: chainName as Chain, orderId });
    say(`  deposit address ${created.address}`);
    say(`  checkout page   ${created.paymentUrl}`);
    const txid = await payAsCustomer(chain, info.customer, token.contract, created.address, parsed.base);
    say(`  the customer paid: ${txid}`);
    const collected = await follow(client, orderId);
    if (collected.status !== 'SUCCESS') throw new Error(`the collection ended ${collected.status}`);
    await followSweep(dataDir, chainName, created.address);

    const payoutId = `${orderId}-payout`;
    const to = customerAddress(chain.family, info.customer);
    say(`Payout ${payoutId}: 1.00 ${symbol} on ${chainName} to ${to}`);
    const payout = await client.createPayout({
      amount: '1.00',
      symbol,
      chain: chainName as Chain,
      orderId: payoutId,
      receiveAddress: to,
    });
    say(`  from the hot wallet ${payout.address}`);
    const paid = await follow(client, payoutId);
    if (paid.status !== 'SUCCESS') throw new Error(`the payout ended ${paid.status}`);
    await new Promise((r) => setTimeout(r, 1500)); // let the last webhooks arrive
    say('Demo finished: collection SUCCESS, deposit swept, payout SUCCESS.');
  } finally {
    await receiver.close();
  }
}
