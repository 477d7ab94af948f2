import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isProcessRunning } from '../../src/devnet/evm/is-process-running.ts';
import { freePort, kassa, spawnKassa } from '../helpers/cli.ts';

/**
 * The newcomer path: the real `kassa sandbox` as a child process (as `npm start` runs it), then
 * the real `kassa demo` against it, a restart that keeps the data, and Ctrl-C stopping everything.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'kassa-sandbox-'));
let sandbox: ChildProcess | null = null;
let port = 0;
let sandboxOutput: () => string = () => '';

afterAll(() => {
  sandbox?.kill('SIGKILL');
});

async function startSandbox(): Promise<{ output: () => string }> {
  port = port || (await freePort());
  let output = '';
  sandbox = spawnKassa(['sandbox', '--data', dataDir, '--port', String(port)], {
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

  it('starts the devnets, prints the demo merchant’s secrets once and a curl command', async () => {
    const { output } = await startSandbox();
    sandboxOutput = output;
    const text = output();
    expect(text).toMatch(/ready in [\d.]+ s/);
    expect(text).toContain('token:');
    expect(text).toContain('openssl dgst -sha256 -hmac');
    merchantId = /merchant: {2}(mch_\w+)/.exec(text)?.[1] ?? '';
    expect(merchantId).toMatch(/^mch_/);
  });

  it('serves the dashboard at /admin, where the sandbox user it printed signs in', async () => {
    const [, url, email, password] =
      /dashboard: (\S+) \(sign in as (\S+), password (\S+)\)/.exec(sandboxOutput()) ?? [];
    expect(url).toBe(`http://localhost:${port}/admin`);
    const base = `http://127.0.0.1:${port}`;
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

  it('runs the demo to SUCCESS for the collection and the payout, with verified webhooks', () => {
    const r = kassa(['demo', '--data', dataDir], { HOME: process.env.HOME ?? '/tmp' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const payoutAt = lines.findIndex((l) => l.startsWith('Payout '));
    expect(lines.slice(0, payoutAt).some((l) => /status SUCCESS .*actualAmount 10\.00/.test(l))).toBe(true);
    expect(lines.slice(payoutAt).some((l) => /status SUCCESS .*actualAmount 1\.00/.test(l))).toBe(true);
    expect(r.stdout).toMatch(/webhook ORDER_SUCCESS for demo-\d+ \(signatures verified\)/);
    expect(r.stdout).not.toContain('MISMATCH');
    expect(r.stdout).toContain('Demo finished: collection SUCCESS, payout SUCCESS.');
  });

  it('runs the demo on the TRON and Sui devnets too', () => {
    for (const args of [
      ['--chain', 'TRON'],
      ['--chain', 'SUI', '--symbol', 'USDC'],
    ]) {
      const r = kassa(['demo', '--data', dataDir, ...args], { HOME: process.env.HOME ?? '/tmp' });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain('Demo finished: collection SUCCESS, payout SUCCESS.');
    }
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
