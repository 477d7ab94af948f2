import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, expect, it } from 'vitest';
import { LEASE_GRACE_MS } from '../../src/services/deliver-webhooks.ts';
import { makeHarness, TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';
import { allEvents, attemptRows, moveOrder, openOrder } from '../helpers/webhook-orders.ts';
import { startReceiver, verifyWebhook } from '../helpers/webhook-receiver.ts';

const root = join(import.meta.dirname, '../..');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

const TIMEOUT_MS = 300;

/** Starts the worker as its own process on the harness database and waits for `ready`. */
async function startWorkerProcess(db: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/webhook-worker.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      KASSA_DB: db,
      KASSA_MASTER_KEY: TEST_MASTER_KEY,
      KASSA_MNEMONIC: TEST_MNEMONIC,
      KASSA_LOG_LEVEL: 'warn',
      KASSA_TEST_OVERRIDES: JSON.stringify({ webhooks: { timeoutMs: TIMEOUT_MS, pollIntervalMs: 50 } }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`worker exited with ${code} before it was ready`)));
  });
  expect(line).toBe('ready');
  return child;
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

it('delivers an event after the worker was killed (SIGKILL) in the middle of sending it', async () => {
  const h = await makeHarness();
  const rx = await startReceiver();
  let second: ChildProcess | null = null;
  try {
    h.clock.set(Date.now()); // the worker process runs on the real clock
    const m = await h.merchant('V3', rx.url);
    const o = moveOrder(h, await openOrder(h, m, 'K-1'), 'PENDING');
    moveOrder(h, o, 'PENDING_CONFIRMATION');
    const [first, later] = allEvents(h);

    // first life: the receiver never answers, and the worker is killed while it waits
    rx.reply(() => 'hang');
    const worker = await startWorkerProcess(join(h.dir, 'kassa.db'));
    await rx.waitFor(1);
    const killedAt = Date.now();
    worker.kill('SIGKILL');
    await new Promise((r) => worker.once('exit', r));
    expect(worker.signalCode).toBe('SIGKILL');
    const leased = allEvents(h);
    expect(leased.map((e) => e.status)).toEqual(['pending', 'pending']);
    expect(attemptRows(h, first!.id)).toEqual([]); // nothing was recorded: the outcome is unknown
    expect(leased[0]!.nextAttemptAt).toBeGreaterThan(killedAt); // still leased by the dead worker

    // second life: the receiver is healthy; the event goes out again once the lease has run out
    rx.reply(() => ({ status: 200 }));
    second = await startWorkerProcess(join(h.dir, 'kassa.db'));
    await rx.waitFor(3, TIMEOUT_MS + LEASE_GRACE_MS + 10_000);
    await until(() => allEvents(h).every((e) => e.status === 'delivered'));

    const bodies = rx.received.map((r) => verifyWebhook(m.webhookSecret, r));
    expect(bodies.map((b) => b.eventId)).toEqual([first!.id, first!.id, later!.id]);
    expect(bodies.map((b) => b.notifyType)).toEqual([
      'ORDER_PENDING',
      'ORDER_PENDING',
      'ORDER_PENDING_CONFIRMATION',
    ]);
    expect(bodies[0]!.nonce).not.toBe(bodies[1]!.nonce);
    expect(rx.received[1]!.at).toBeGreaterThanOrEqual(leased[0]!.nextAttemptAt);
    expect(attemptRows(h, first!.id).map((a) => a.statusCode)).toEqual([200]);
  } finally {
    second?.kill('SIGKILL');
    await rx.close();
    await h.close();
  }
});
