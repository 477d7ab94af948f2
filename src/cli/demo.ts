import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { customerAddress, payAsCustomer } from '../devnet/pay-as-customer.ts';
import { parseAmount } from '../domain/money.ts';
import { UsageError } from './output.ts';
import type { SandboxInfo } from './sandbox.ts';

type Flags = Record<string, string | boolean | undefined>;
const say = (line: string) => process.stdout.write(`${line}\n`);

function signedBody(token: string, data: unknown): string {
  const text = JSON.stringify(data);
  const sign = createHmac('sha256', token).update(text).digest('hex');
  return JSON.stringify({ sign, timestamp: Math.floor(Date.now() / 1000), nonce: randomUUID(), data });
}

async function post<T>(info: SandboxInfo, path: string, data: unknown): Promise<T> {
  const res = await fetch(`${info.apiUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: signedBody(info.merchant.token, data),
  });
  const body = (await res.json()) as { code: number; msg: string; data: T };
  if (body.code !== 200) throw new Error(`${path}: ${body.code} ${body.msg}`);
  return body.data;
}

interface Status {
  status: string;
  actualAmount: string | null;
  reason: string | null;
  transaction: { txid: string; confirmedNum: number } | null;
}

async function status(info: SandboxInfo, orderId: string): Promise<Status> {
  const sign = createHmac('sha256', info.merchant.token).update(orderId).digest('hex');
  const res = await fetch(`${info.apiUrl}/v1/order/status/${encodeURIComponent(orderId)}?sign=${sign}`);
  return ((await res.json()) as { data: Status }).data;
}

/** Follows an order until a final state, printing every change; resolves with the final status. */
async function follow(info: SandboxInfo, orderId: string, timeoutMs = 120_000): Promise<Status> {
  const end = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const s = await status(info, orderId);
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

/** A local webhook receiver that checks both signatures and prints each event. */
function startReceiver(info: SandboxInfo) {
  const url = new URL(info.webhookUrl);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const secret = info.merchant.webhookSecret;
      const id = String(req.headers['webhook-id'] ?? '');
      const ts = String(req.headers['webhook-timestamp'] ?? '');
      const expected = createHmac('sha256', secret).update(`${id}.${ts}.${raw}`).digest();
      const given = String(req.headers['webhook-signature'] ?? '')
        .split(' ')
        .map((s) => Buffer.from(s.replace(/^v1,/, ''), 'base64'));
      const headerOk = given.some((g) => g.length === expected.length && timingSafeEqual(g, expected));
      let body: {
        eventId?: string;
        notifyType?: string;
        data?: { orderId?: string; status?: string };
        sign?: string;
      } = {};
      try {
        body = JSON.parse(raw);
      } catch {}
      const dataText = raw.match(/"data":(\{.*\}),"sign"/)?.[1] ?? JSON.stringify(body.data);
      const bodyOk = createHmac('sha256', secret).update(dataText).digest('hex') === body.sign;
      say(
        `  webhook ${body.notifyType} for ${body.data?.orderId} (${headerOk && bodyOk ? 'signatures verified' : 'SIGNATURE MISMATCH'})`,
      );
      res.writeHead(headerOk && bodyOk ? 200 : 400).end();
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
 * `kassa demo`: against a running `kassa sandbox`, creates a collection through the signed API,
 * prints its checkout URL, pays it from the devnet customer, prints each state and webhook until
 * SUCCESS, then does the same for a payout back to the customer.
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

  const receiver = await startReceiver(info);
  try {
    const orderId = `demo-${Date.now()}`;
    say(`Collection ${orderId}: ${amount} ${symbol} on ${chainName}`);
    const created = await post<{ address: string; paymentUrl: string }>(info, '/v1/order/createCollection', {
      amount,
      symbol,
      chain: chainName,
      orderId,
    });
    say(`  deposit address ${created.address}`);
    say(`  checkout page   ${created.paymentUrl}`);
    const txid = await payAsCustomer(chain, info.customer, token.contract, created.address, parsed.base);
    say(`  the customer paid: ${txid}`);
    const collected = await follow(info, orderId);
    if (collected.status !== 'SUCCESS') throw new Error(`the collection ended ${collected.status}`);

    const payoutId = `${orderId}-payout`;
    const to = customerAddress(chain.family, info.customer);
    say(`Payout ${payoutId}: 1.00 ${symbol} on ${chainName} to ${to}`);
    const payout = await post<{ address: string }>(info, '/v1/order/createPayout', {
      amount: '1.00',
      symbol,
      chain: chainName,
      orderId: payoutId,
      receiveAddress: to,
    });
    say(`  from the hot wallet ${payout.address}`);
    const paid = await follow(info, payoutId);
    if (paid.status !== 'SUCCESS') throw new Error(`the payout ended ${paid.status}`);
    await new Promise((r) => setTimeout(r, 1500)); // let the last webhooks arrive
    say('Demo finished: collection SUCCESS, payout SUCCESS.');
  } finally {
    await receiver.close();
  }
}
