import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EvmDevnet, startEvmDevnet } from '../../../src/devnet/evm/devnet.ts';
import { transferToken } from '../../../src/devnet/evm/tokens.ts';
import { createKeyRing } from '../../../src/keys/key-ring.ts';
import { freePort, kassa, spawnKassa } from '../../../test/helpers/cli.ts';
import { customer, devnetChainConfig } from '../../../test/helpers/evm-chain.ts';
import { TEST_MASTER_KEY, TEST_MNEMONIC } from '../../../test/helpers/harness.ts';
import { KassaClient, KassaError, type NotifyOrder, verifyWebhook, type WebhookEvent } from '../src/index.ts';

/**
 * The client against the real thing: `kassa start` as a child process, scanning a real EVM node
 * (anvil) with a real ERC-20, and a webhook receiver that verifies every event with the client's
 * verifyWebhook. A collection is paid on chain and a payout sent, only through the client.
 */
const dir = mkdtempSync(join(tmpdir(), 'kassa-client-'));
let devnet: EvmDevnet;
let server: ChildProcess | null = null;
let receiver: Server;
let client: KassaClient;
let base = '';
let merchant: { merchantId: string; token: string; webhookSecret: string };
const events: { event?: WebhookEvent; error?: string }[] = [];

beforeAll(async () => {
  const hot = createKeyRing(TEST_MNEMONIC).hotWallet('ETH').address as `0x${string}`;
  devnet = await startEvmDevnet({
    chains: ['ETH'],
    fund: { accounts: [hot, customer.address], tokens: 1_000n },
  });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        events.push({
          event: await verifyWebhook(Buffer.concat(chunks), req.headers, merchant.webhookSecret),
        });
      } catch (error) {
        events.push({ error: String(error) });
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/kassa`;
  const port = await freePort();
  const config = join(dir, 'kassa.json');
  const chains = devnetChainConfig(devnet, { confirmations: 1, pollIntervalMs: 200 });
  writeFileSync(
    config,
    JSON.stringify({
      ...chains,
      port,
      host: '127.0.0.1',
      baseUrl: `http://127.0.0.1:${port}`,
      webhooks: { allowPrivateTargets: true },
    }),
  );
  const env = {
    KASSA_DB: join(dir, 'kassa.db'),
    KASSA_MNEMONIC: TEST_MNEMONIC,
    KASSA_MASTER_KEY: TEST_MASTER_KEY,
  };
  expect(kassa(['migrate', '--config', config], env).code).toBe(0);
  const created = kassa(
    ['merchant', 'create', '--kind', 'V3', '--callback-url', hook, '--config', config],
    env,
  );
  expect(created.code, created.stderr).toBe(0);
  merchant = JSON.parse(created.stdout);
  server = spawnKassa(['start', '--config', config], { ...env, KASSA_LOG_LEVEL: 'warn' });
  let output = '';
  for (const stream of [server.stdout, server.stderr]) {
    stream?.on('data', (d: Buffer) => {
      output += d.toString();
    });
  }
  base = `http://127.0.0.1:${port}`;
  for (const end = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 100))) {
    const ready = await fetch(`${base}/readyz`).catch(() => null);
    if (ready?.status === 200) break;
    if (Date.now() > end) throw new Error(`kassa start is not ready: ${await ready?.text()} ${output}`);
  }
  expect(output).toBe('');
  client = new KassaClient({ baseUrl: base, token: merchant.token, merchantId: merchant.merchantId });
});

afterAll(async () => {
  server?.kill('SIGKILL');
  receiver?.close();
  await devnet?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function settled(orderId: string): Promise<NotifyOrder> {
  let order: NotifyOrder | null = null;
  await expect
    .poll(
      async () => {
        order = await client.getOrder(orderId);
        return order.status;
      },
      { timeout: 30_000, interval: 200 },
    )
    .toMatch(/^(SUCCESS|FAILED|EXPIRED)$/);
  return order as unknown as NotifyOrder;
}

describe('@kassa/client against kassa start on anvil', () => {
  it('lists the tokens, with the devnet’s USDT contract', async () => {
    const symbols = await client.supportSymbols({ chain: 'ETH' });
    expect(symbols).toContainEqual({
      symbol: 'USDT',
      chain: 'ETH',
      contractAddress: devnet.get('ETH').tokens.USDT.address,
      decimals: devnet.get('ETH').tokens.USDT.decimals,
    });
  });

  it('creates a collection, sees it paid on chain, and receives verified webhooks', async () => {
    const created = await client.createCollection({
      amount: '12.5',
      symbol: 'USDT',
      chain: 'ETH',
      orderId: 'C-1',
    });
    expect(created).toMatchObject({ orderId: 'C-1', amount: '12.5', chain: 'ETH', uid: null });
    expect(await client.getOrderStatus('C-1')).toBe('INIT');
    const usdt = devnet.get('ETH').tokens.USDT;
    await transferToken(devnet.get('ETH').client, {
      from: customer,
      token: usdt.address,
      to: created.address as `0x${string}`,
      amount: 12_500_000n,
    });
    const order = await settled('C-1');
    expect(order).toMatchObject({ status: 'SUCCESS', actualAmount: '12.50', orderType: 'COLLECTION' });
    expect(await client.getCheckout('C-1')).toMatchObject({ status: 'SUCCESS', address: created.address });
    await expect
      .poll(() => events.map((e) => e.event?.notifyType), { timeout: 20_000 })
      .toContain('ORDER_SUCCESS');
    expect(events.filter((e) => e.error)).toEqual([]);
    const success = events.find((e) => e.event?.notifyType === 'ORDER_SUCCESS')?.event;
    expect(success?.data).toMatchObject({ orderId: 'C-1', status: 'SUCCESS' });
  });

  it('sends a payout to SUCCESS', async () => {
    const created = await client.createPayout({
      amount: '1.25',
      symbol: 'USDT',
      chain: 'ETH',
      orderId: 'P-1',
      receiveAddress: customer.address,
    });
    expect(created.orderId).toBe('P-1');
    const order = await settled('P-1');
    expect(order).toMatchObject({ status: 'SUCCESS', orderType: 'PAYOUT', actualAmount: '1.25' });
    // the merchant's ledger: 12.50 credited by the paid collection, 1.25 debited by the payout
    const [usdt] = await client.getBalance({ chain: 'ETH', symbol: 'USDT' });
    expect(usdt).toMatchObject({ chain: 'ETH', symbol: 'USDT', balance: '11.25', frozenBalance: '0.00' });
  });

  it('throws KassaError with Kassa’s code and message', async () => {
    await expect(
      client.createCollection({ amount: '1', symbol: 'DOGE', chain: 'ETH', orderId: 'C-2' }),
    ).rejects.toMatchObject({ code: 400, msg: 'The symbol is not supported on this chain.' });
    const missing = await client.getOrder('no-such-order').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(KassaError);
    expect(missing).toMatchObject({ code: 404, msg: 'Order not found.' });
  });

  it('retries a creation whose answer was lost without making a second order', async () => {
    let lost = 0;
    const flaky = new KassaClient({
      baseUrl: base,
      token: merchant.token,
      retryDelayMs: 10,
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        if (init?.method === 'POST' && lost++ === 0) throw new TypeError('fetch failed: the answer was lost');
        return res;
      },
    });
    const created = await flaky.createCollection({ amount: '2', symbol: 'USDT', chain: 'ETH' });
    expect(lost).toBe(2);
    const again = await client.createCollection({
      amount: '2',
      symbol: 'USDT',
      chain: 'ETH',
      orderId: created.orderId,
    });
    expect(again.address).toBe(created.address);
  });
});
