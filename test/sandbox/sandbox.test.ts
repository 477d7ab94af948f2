import { type ChildProcess, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isProcessRunning } from '../../src/devnet/evm/is-process-running.ts';
import { payAsCustomer } from '../../src/devnet/pay-as-customer.ts';
import type { SandboxInfo } from '../../src/devnet/sandbox.ts';
import { freePort, KASSA_BIN, kassa, spawnKassa } from '../helpers/cli.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';
import { XPAY_KEYS } from '../helpers/xpay.ts';
import {
  javaSdkVerifyWebhook,
  nodeSdkParseWebhook,
  nodeSdkRequestBody,
  nodeSdkVerifyWebhook,
} from '../helpers/xpay-sdk.ts';
import { sandboxSecrets } from './secrets.ts';

/**
 * The newcomer path: the real `kassa sandbox` as a child process (as `npm start` runs it), then
 * the real `kassa demo` against it, a restart that keeps the data, and Ctrl-C stopping everything.
 * The first run logs at debug level, and everything the sandbox and the demos print is scanned for
 * secrets (issue 14's log scan).
 */
const dataDir = mkdtempSync(join(tmpdir(), 'kassa-sandbox-'));
let sandbox: ChildProcess | null = null;
let port = 0;
/** Everything printed by the first sandbox run and the demos against it. */
const printed: string[] = [];

afterAll(() => {
  sandbox?.kill('SIGKILL');
});

/**
 * Starts `kassa sandbox`: the first time with its port from `PORT` (as `PORT=9000 npm start` does)
 * and at debug level, later with `--port`.
 */
async function startSandbox(): Promise<{ output: () => string }> {
  const first = port === 0;
  port = port || (await freePort());
  let output = '';
  sandbox = first
    ? spawnKassa(['sandbox', '--data', dataDir, '--log-level', 'debug'], {
        HOME: process.env.HOME ?? '/tmp',
        PORT: String(port),
      })
    : spawnKassa(['sandbox', '--data', dataDir, '--port', String(port)], {
        HOME: process.env.HOME ?? '/tmp',
      });
  sandbox.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  sandbox.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  await expect.poll(() => output, { timeout: 60_000, interval: 100 }).toContain('Kassa sandbox is ready');
  return { output: () => output };
}

async function interrupt(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGINT');
  return exited;
}

describe('kassa sandbox + kassa demo', () => {
  let merchantId = '';

  let firstOutput: () => string = () => '';

  it('starts the devnets on the PORT it is given, prints the demo merchant’s secrets once and a curl command', async () => {
    const { output } = await startSandbox();
    firstOutput = output;
    const text = output();
    expect(text).toMatch(/ready in [\d.]+ s/);
    expect(text).toContain(`Kassa sandbox is ready in`);
    expect(text).toContain(`: http://localhost:${port}\n`);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect(text).toContain('token:');
    expect(text).toContain('openssl dgst -sha256 -hmac');
    merchantId = /merchant: {2}(mch_\w+)/.exec(text)?.[1] ?? '';
    expect(merchantId).toMatch(/^mch_/);
  });

  it('serves the dashboard at /admin of the admin listener, where the sandbox user it printed signs in', async () => {
    const [, url, email, password] =
      /dashboard: (\S+) \(sign in as (\S+), password (\S+)\)/.exec(firstOutput()) ?? [];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/admin$/);
    expect(url).not.toBe(`http://127.0.0.1:${port}/admin`);
    expect((await fetch(`http://127.0.0.1:${port}/admin/login`)).status).toBe(404);
    const base = (url as string).replace(/\/admin$/, '');
    const form = await fetch(`${base}/admin/login`);
    const pre = (form.headers.getSetCookie()[0] as string).split(';')[0] as string;
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] as string;
    const signIn = await fetch(`${base}/admin/login`, {
      method: 'POST',
      headers: { cookie: pre, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, email: email as string, password: password as string }),
      redirect: 'manual',
    });
    expect(signIn.status).toBe(303);
  });

  it('runs the demo to SUCCESS for the collection and the payout, with verified webhooks, and shows the deposit swept to the hot wallet', () => {
    const r = kassa(['demo', '--data', dataDir], { HOME: process.env.HOME ?? '/tmp' });
    printed.push(r.stdout, r.stderr);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const payoutAt = lines.findIndex((l) => l.startsWith('Payout '));
    expect(lines.slice(0, payoutAt).some((l) => /status SUCCESS .*actualAmount 10\.00/.test(l))).toBe(true);
    expect(lines.slice(payoutAt).some((l) => /status SUCCESS .*actualAmount 1\.00/.test(l))).toBe(true);
    expect(r.stdout).toMatch(/webhook ORDER_SUCCESS for demo-\d+ \(signatures verified\)/);
    expect(r.stdout).not.toContain('MISMATCH');
    // the worker swept the paid deposit: a gas top-up from the hot wallet, then the whole 10 USDT
    const sweptAt = lines.findIndex((l) => l.startsWith('Sweep of '));
    expect(sweptAt).toBeGreaterThan(0);
    expect(sweptAt).toBeLessThan(payoutAt);
    expect(
      lines
        .slice(sweptAt, payoutAt)
        .some((l) => /status final: 10\.00 USDT \(topup .* final, transfer .* final\)/.test(l)),
    ).toBe(true);
    expect(r.stdout).toContain('Demo finished: collection SUCCESS, deposit swept, payout SUCCESS.');
  });

  it('runs the demo on the TRON and Sui devnets too', () => {
    for (const args of [
      ['--chain', 'TRON'],
      ['--chain', 'SUI', '--symbol', 'USDC'],
    ]) {
      const r = kassa(['demo', '--data', dataDir, ...args], { HOME: process.env.HOME ?? '/tmp' });
      printed.push(r.stdout, r.stderr);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain('Demo finished: collection SUCCESS, deposit swept, payout SUCCESS.');
    }
  });

  it('serves a merchant in XPay mode end to end: an XPay-signed collection paid on the devnet, webhooks both SDKs’ rules accept', async () => {
    const info = JSON.parse(readFileSync(join(dataDir, 'sandbox.json'), 'utf8')) as SandboxInfo;
    const { masterKey } = JSON.parse(readFileSync(join(dataDir, 'sandbox-secrets.json'), 'utf8'));
    const rx = await startReceiver();
    try {
      // the operator adds the XPay merchant with its own apiKey/apiSecret while the sandbox runs
      const config = join(dataDir, 'xpay-merchant.json');
      writeFileSync(config, JSON.stringify({ webhooks: { allowPrivateTargets: true } }));
      const created = spawnSync(
        process.execPath,
        [KASSA_BIN, 'merchant', 'create', '--kind', 'V3', '--compat', 'xpay', '--import-secrets', '-'].concat(
          ['--callback-url', rx.url, '--config', config],
        ),
        {
          env: {
            PATH: process.env.PATH ?? '',
            KASSA_DB: join(dataDir, 'sandbox.db'),
            KASSA_MASTER_KEY: masterKey,
          },
          input: JSON.stringify({ apiKey: XPAY_KEYS.token, apiSecret: XPAY_KEYS.webhookSecret }),
          encoding: 'utf8',
        },
      );
      expect(created.status, created.stderr).toBe(0);

      // the merchant's server, as the node SDK: createCollection (amount as a number), then status
      const orderId = `xpay-${Date.now()}`;
      const token = info.chains.ETH?.tokens.USDT as { contract: string; decimals: number };
      const request = nodeSdkRequestBody(
        XPAY_KEYS.webhookSecret,
        { amount: 10, symbol: 'USDT', chain: 'ETH', orderId, uid: 'user-42' },
        { timestamp: Math.floor(Date.now() / 1000), nonce: randomUUID() },
      );
      const headers = { 'content-type': 'application/json', 'x-api-token': XPAY_KEYS.token };
      let answer: { code: number; msg: string; data: { address: string } } = {
        code: 0,
        msg: '',
        data: { address: '' },
      };
      // the API sees a new merchant within a second (until then: Invalid permissions, nonce unspent)
      await expect
        .poll(
          async () => {
            const res = await fetch(`${info.apiUrl}/v1/order/createCollection`, {
              method: 'POST',
              headers,
              body: request,
            });
            expect(res.status).toBe(200);
            answer = await res.json();
            return answer.code;
          },
          { timeout: 10_000, interval: 250 },
        )
        .toBe(200);
      const txid = await payAsCustomer(
        info.chains.ETH as SandboxInfo['chains'][string],
        info.customer,
        token.contract,
        answer.data.address,
        10n * 10n ** BigInt(token.decimals),
      );
      await expect
        .poll(() => rx.received.map((r) => JSON.parse(r.body).notifyType), {
          timeout: 120_000,
          interval: 250,
        })
        .toContain('ORDER_SUCCESS');

      const types = rx.received.map((r) => JSON.parse(r.body).notifyType);
      expect(types.at(-1)).toBe('ORDER_SUCCESS');
      expect(types.every((t) => ['ORDER_PENDING_CONFIRMATION', 'ORDER_SUCCESS'].includes(t))).toBe(true);
      for (const r of rx.received) {
        const at = Math.floor(r.at / 1000);
        expect(nodeSdkVerifyWebhook(XPAY_KEYS.webhookSecret, r.body, at, '', ''), r.body).toBe(true);
        expect(nodeSdkParseWebhook(XPAY_KEYS.webhookSecret, r.body, at)).not.toBeNull();
        expect(javaSdkVerifyWebhook(XPAY_KEYS.webhookSecret, r.body, at), r.body).toBe(true);
      }
      const success = JSON.parse(rx.received.at(-1)?.body as string);
      expect(success.data).toMatchObject({
        orderId,
        uid: 'user-42',
        orderType: 'COLLECTION',
        status: 'SUCCESS',
        amount: '10',
        transaction: {
          chain: 'ETH',
          symbol: 'USDT',
          txid,
          contractAddress: token.contract,
          to: answer.data.address,
          amount: String(10n * 10n ** BigInt(token.decimals)),
          decimals: token.decimals,
          status: 'SUCCESS',
        },
      });
      expect(success.data.transaction.timestamp).toBeGreaterThan(1e12); // milliseconds, as XPay sends
      const status = await fetch(`${info.apiUrl}/v1/order/status/${orderId}`, { headers });
      expect(await status.json()).toMatchObject({
        code: 200,
        msg: '操作成功',
        data: { orderId, status: 'SUCCESS' },
      });
    } finally {
      await rx.close();
    }
  });

  it('prints no mnemonic, master key, token, webhook secret or private key at debug level', async () => {
    // The demos ran while this process was not reading the sandbox's output: wait for it to arrive.
    await expect.poll(firstOutput, { timeout: 30_000, interval: 100 }).toContain('"msg":"webhook delivered"');
    const all = [firstOutput(), ...printed].join('\n');
    expect(all).toContain('"level":20'); // debug lines were written
    // The banner shows the demo merchant's token and webhook secret once, on purpose: the only
    // place they may appear.
    const banner = /^ {2}(token|webhook secret): +[0-9a-f]{64}$/gm;
    expect(all.match(banner)).toHaveLength(2);
    const text = all.replace(banner, '').toLowerCase();
    for (const [name, secret] of sandboxSecrets(dataDir))
      expect(text.includes(secret.toLowerCase()), `${name} appears in the output`).toBe(false);
    // the XPay merchant's token travelled in X-API-TOKEN headers: never logged either
    for (const [name, secret] of Object.entries(XPAY_KEYS))
      expect(text.includes(secret.toLowerCase()), `the XPay merchant's ${name} appears in the output`).toBe(
        false,
      );
  });

  it('stops every child process on Ctrl-C, and a restart keeps the merchant and its orders', async () => {
    const first = sandbox as ChildProcess;
    const children = readFileSync(`/proc/${first.pid}/task/${first.pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    expect(children.length).toBeGreaterThanOrEqual(4);
    expect(await interrupt(first)).toBe(0);
    for (const pid of children) expect(isProcessRunning(pid)).toBe(false);

    const { output } = await startSandbox();
    expect(output()).not.toContain('token:');
    expect(output()).toContain(merchantId);
    const r = kassa(['demo', '--data', dataDir, '--chain', 'BSC'], { HOME: process.env.HOME ?? '/tmp' });
    expect(r.code).toBe(0);
    expect(await interrupt(sandbox as ChildProcess)).toBe(0);
  });
});
