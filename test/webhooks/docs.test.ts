import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverWebhooks } from '../../src/services/deliver-webhooks.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { type Harness, makeHarness } from '../helpers/harness.ts';
import { moveOrder, openOrder } from '../helpers/webhook-orders.ts';
import { type Received, type Receiver, startReceiver } from '../helpers/webhook-receiver.ts';

/**
 * The verification examples of docs/webhooks.md, run as written against a webhook Kassa really
 * sent: the Node function (with node) and the shell commands (with bash and openssl).
 */
const doc = readFileSync(join(import.meta.dirname, '../../docs/webhooks.md'), 'utf8');
function block(kind: 'node' | 'sh'): string {
  const m = doc.match(new RegExp(`<!-- docs-test: ${kind} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\\n\`\`\``));
  if (!m?.[1]) throw new Error(`no ${kind} example in docs/webhooks.md`);
  return m[1];
}

let h: Harness;
let rx: Receiver;
let m: MerchantCreated;
let got: Received;
const dir = mkdtempSync(join(tmpdir(), 'kassa-docs-'));

beforeAll(async () => {
  h = await makeHarness();
  h.clock.set(Date.now());
  rx = await startReceiver();
  m = await h.merchant('V3', rx.url);
  moveOrder(h, await openOrder(h, m, 'Doc-1/ü'), 'PENDING');
  await deliverWebhooks(h.rt);
  got = rx.received[0]!;
});
afterAll(async () => {
  await rx.close();
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

function runNode(body: string, headers: Record<string, unknown>, secret: string) {
  writeFileSync(join(dir, 'verify.mjs'), block('node'));
  const script = `import { verifyKassaWebhook } from ${JSON.stringify(join(dir, 'verify.mjs'))};
    const [body, headers, secret] = JSON.parse(process.argv[1]);
    try { console.log(JSON.stringify(verifyKassaWebhook(body, headers, secret))); } catch (e) { console.log('ERR ' + e.message); }`;
  return spawnSync(
    process.execPath,
    ['--input-type=module', '-e', script, JSON.stringify([body, headers, secret])],
    {
      encoding: 'utf8',
    },
  ).stdout.trim();
}

function runShell(body: string, headers: Record<string, unknown>, secret: string) {
  writeFileSync(join(dir, 'body.json'), body);
  const script = block('sh')
    .replace(/^SECRET=.*$/m, `SECRET='${secret}'`)
    .replace(/^WEBHOOK_ID=.*$/m, `WEBHOOK_ID='${headers['webhook-id']}'`)
    .replace(/^WEBHOOK_TIMESTAMP=.*$/m, `WEBHOOK_TIMESTAMP='${headers['webhook-timestamp']}'`)
    .replace(/^WEBHOOK_SIGNATURE=.*$/m, `WEBHOOK_SIGNATURE='${headers['webhook-signature']}'`);
  return spawnSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8' });
}

describe('docs/webhooks.md examples', () => {
  it('the Node example accepts a real webhook and returns the event', () => {
    const out = runNode(got.body, got.headers, m.webhookSecret);
    expect(JSON.parse(out)).toMatchObject({ notifyType: 'ORDER_PENDING', data: { orderId: 'Doc-1/ü' } });
  });

  it('the Node example rejects a changed body, a wrong secret and a stale timestamp', () => {
    expect(runNode(got.body.replace('"2"', '"3"'), got.headers, m.webhookSecret)).toBe(
      'ERR bad webhook-signature',
    );
    expect(runNode(got.body, got.headers, 'f'.repeat(64))).toBe('ERR bad webhook-signature');
    const old = { ...got.headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 301) };
    expect(runNode(got.body, old, m.webhookSecret)).toBe('ERR stale or invalid timestamp');
  });

  it('the shell example checks both signatures and the timestamp of a real webhook', () => {
    const r = runShell(got.body, got.headers, m.webhookSecret);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('webhook-signature ok\nsign ok\ntimestamp fresh\n');
    expect(r.status).toBe(0);
  });

  it('the shell example fails on a wrong secret or a changed body', () => {
    expect(runShell(got.body, got.headers, 'f'.repeat(64)).stdout).toBe('webhook-signature BAD\n');
    const changed = runShell(got.body.replace('"2"', '"3"'), got.headers, m.webhookSecret);
    expect(changed.stdout).toBe('webhook-signature BAD\n');
    expect(changed.status).toBe(1);
  });
});
