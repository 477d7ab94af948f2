import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverWebhooks } from '../../src/services/deliver-webhooks.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { KASSA_BIN } from '../helpers/cli.ts';
import { type Harness, makeHarness, TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';
import { allEvents, eventRow, moveOrder, openOrder } from '../helpers/webhook-orders.ts';
import { type Receiver, startReceiver, verifyWebhook } from '../helpers/webhook-receiver.ts';

/**
 * `kassa webhooks …` as a real child process on a database the test prepared. The process is
 * spawned asynchronously, so the receiver in this process can answer while the command runs. Its
 * config allows private webhook targets: the receiver listens on 127.0.0.1.
 */
function kassa(args: string[], extraEnv: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [KASSA_BIN, ...args, '--config', config], {
      env: { PATH: process.env.PATH ?? '', ...env, ...extraEnv },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let h: Harness;
let rx: Receiver;
let env: Record<string, string>;
let config: string;
let m: MerchantCreated;
let noCallback: MerchantCreated;

beforeAll(async () => {
  h = await makeHarness({ webhooks: { timeoutMs: 2000 } });
  h.clock.set(Date.now());
  rx = await startReceiver();
  config = join(h.dir, 'kassa.json');
  writeFileSync(config, JSON.stringify({ webhooks: { allowPrivateTargets: true } }));
  env = {
    KASSA_DB: join(h.dir, 'kassa.db'),
    KASSA_MASTER_KEY: TEST_MASTER_KEY,
    KASSA_MNEMONIC: TEST_MNEMONIC,
    KASSA_LOG_LEVEL: 'warn',
  };
  m = await h.merchant('V3', rx.url);
  noCallback = await h.merchant('V3');
  // W-1: PENDING delivered, SUCCESS refused with 410 (failed); W-2: PENDING still retrying
  rx.reply((r) => {
    const b = JSON.parse(r.body);
    if (b.data.orderId === 'W-2') return { status: 503 };
    return b.notifyType === 'ORDER_SUCCESS' ? { status: 410 } : { status: 200 };
  });
  const w1 = moveOrder(h, await openOrder(h, m, 'W-1'), 'PENDING');
  moveOrder(h, await openOrder(h, m, 'W-2'), 'PENDING');
  await deliverWebhooks(h.rt);
  h.clock.advance(1000);
  moveOrder(h, w1, 'SUCCESS');
  await deliverWebhooks(h.rt);
});

afterAll(async () => {
  await rx.close();
  await h.close();
});

describe('kassa webhooks', () => {
  it('lists events newest first, with the merchant’s orderId, status, attempts and last error', async () => {
    const r = await kassa(['webhooks', 'list']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^eventId\s+orderId\s+notifyType\s+status\s+attempts\s+created\s+next\s+lastError/,
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/W-1\s+ORDER_SUCCESS\s+failed\s+1\s/);
    expect(lines[1]).toContain('HTTP 410');
    expect(r.stdout).toMatch(/W-2\s+ORDER_PENDING\s+pending\s+1\s.*HTTP 503/);
    expect(r.stdout).toMatch(/W-1\s+ORDER_PENDING\s+delivered\s+1\s/);
  });

  it('filters by order and by failure, and --json carries each attempt', async () => {
    const [byOrder, failedOnly, none] = await Promise.all([
      kassa(['webhooks', 'list', '--order', 'W-1', '--json']),
      kassa(['webhooks', 'list', '--failed', '--json']),
      kassa(['webhooks', 'list', '--order', 'nope']),
    ]);
    expect(byOrder.code).toBe(0);
    const rows = JSON.parse(byOrder.stdout);
    expect(rows.map((e: { notifyType: string }) => e.notifyType)).toEqual(['ORDER_SUCCESS', 'ORDER_PENDING']);
    expect(rows[0]).toMatchObject({
      orderId: 'W-1',
      merchantId: m.merchantId,
      status: 'failed',
      attempts: 1,
      nextAttemptAt: null,
      history: [expect.objectContaining({ statusCode: 410, error: 'HTTP 410' })],
    });
    expect(rows[1].history).toEqual([expect.objectContaining({ statusCode: 200, error: null })]);
    expect(rows[1].deliveredAt).toMatch(/^\d{4}-\d\d-\d\dT/);

    const failed = JSON.parse(failedOnly.stdout);
    expect(failed.map((e: { orderId: string; status: string }) => [e.orderId, e.status])).toEqual([
      ['W-1', 'failed'],
    ]);
    expect(none.stdout.trim()).toBe('(none)');
  });

  it('resends a failed event: it is pending and due again, with the same eventId', async () => {
    const [failed] = allEvents(h).filter((e) => e.status === 'failed');
    const r = await kassa(['webhooks', 'resend', failed!.id]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      eventId: failed!.id,
      previousStatus: 'failed',
      status: 'pending',
    });
    const row = eventRow(h, failed!.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 0 });
    expect(row.nextAttemptAt).toBeLessThanOrEqual(Date.now());
    expect(row.retryUntil).toBeGreaterThan(Date.now() + 71 * 3600_000);

    rx.reply(() => ({ status: 200 }));
    h.clock.set(Date.now());
    await deliverWebhooks(h.rt);
    expect(eventRow(h, failed!.id).status).toBe('delivered');
    expect(verifyWebhook(m.webhookSecret, rx.received.at(-1)!).eventId).toBe(failed!.id);
  });

  it('refuses to resend an event that does not exist', async () => {
    const r = await kassa(['webhooks', 'resend', 'evt_nope']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('No webhook event evt_nope.');
  });

  it('sends a signed test event that cannot be mistaken for an order event', async () => {
    rx.reply(() => ({ status: 200 }));
    const before = rx.received.length;
    const r = await kassa(['webhooks', 'test', '--merchant', m.merchantId]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ merchantId: m.merchantId, delivered: true, statusCode: 200, error: null });
    expect(rx.received).toHaveLength(before + 1);
    const got = rx.received.at(-1)!;
    const body = verifyWebhook(m.webhookSecret, got);
    expect(body.eventId).toBe(out.eventId);
    expect(body.notifyType).toBe('WEBHOOK_TEST');
    expect(body.data).toEqual({
      test: true,
      merchantId: m.merchantId,
      message: expect.stringContaining('not about any order'),
    });
    expect(body.data).not.toHaveProperty('orderId');
    expect(body.data).not.toHaveProperty('status');
    // nothing secret or signed on the operator's terminal
    for (const text of [r.stdout, r.stderr]) {
      expect(text).not.toContain(m.webhookSecret);
      expect(text).not.toContain(body.sign);
      expect(text).not.toContain(String(got.headers['webhook-signature']).slice(3));
    }
    // recorded, delivered, and shown by list
    expect(eventRow(h, out.eventId)).toMatchObject({
      status: 'delivered',
      notifyType: 'WEBHOOK_TEST',
      orderRef: null,
    });
    const listed = JSON.parse(
      (await kassa(['webhooks', 'list', '--merchant', m.merchantId, '--json'])).stdout,
    );
    expect(listed[0]).toMatchObject({ eventId: out.eventId, orderId: null, notifyType: 'WEBHOOK_TEST' });
  });

  it('reports a test event the receiver refused, with exit code 1, and does not retry it', async () => {
    rx.reply(() => ({ status: 500, body: 'nope' }));
    const r = await kassa(['webhooks', 'test', '--merchant', m.merchantId]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ delivered: false, statusCode: 500, error: 'HTTP 500: nope' });
    expect(r.stderr).toContain('test webhook not delivered: HTTP 500: nope');
    expect(eventRow(h, out.eventId)).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('explains what is missing: a callback URL, the master key, or the subcommand', async () => {
    const [noUrl, noKey, usage, listWithoutKey] = await Promise.all([
      kassa(['webhooks', 'test', '--merchant', noCallback.merchantId]),
      kassa(['webhooks', 'test', '--merchant', m.merchantId], { KASSA_MASTER_KEY: '' }),
      kassa(['webhooks']),
      kassa(['webhooks', 'list'], { KASSA_MASTER_KEY: '' }),
    ]);
    expect(noUrl.code).toBe(1);
    expect(noUrl.stderr).toContain('has no callback URL');
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('KASSA_MASTER_KEY');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('webhooks list');
    // list (and resend) need no master key
    expect(listWithoutKey.code).toBe(0);
  });
});
