import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, KASSA_BIN, kassa, spawnKassa, waitForHttp } from './helpers/cli.ts';
import { TEST_MASTER_KEY, TEST_MNEMONIC } from './helpers/harness.ts';

/**
 * `kassa admin …` as an operator runs it (the password only ever on standard input), and the
 * dashboard it signs in to, served by a real `kassa api` process when the config asks for it.
 */
const dir = mkdtempSync(join(tmpdir(), 'kassa-admin-cli-'));
const env: Record<string, string> = {
  KASSA_DB: join(dir, 'kassa.db'),
  KASSA_MASTER_KEY: TEST_MASTER_KEY,
  KASSA_MNEMONIC: TEST_MNEMONIC,
  KASSA_LOG_LEVEL: '',
  // No chain: nothing here may reach the public nodes of the defaults.
  ...Object.fromEntries(
    ['TRON', 'ETH', 'BSC', 'POLYGON', 'AVAX_C_CHAIN', 'SUI'].map((c) => [`KASSA_RPC_${c}`, '']),
  ),
};
const children: ReturnType<typeof spawnKassa>[] = [];

function withStdin(args: string[], input: string) {
  const r = spawnSync(process.execPath, [KASSA_BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  expect(kassa(['migrate'], env).code).toBe(0);
});
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

describe('kassa admin', () => {
  it('creates a user from a password on standard input, and never takes one as an argument', () => {
    const r = withStdin(
      ['admin', 'create-user', '--email', 'Ops@Shop.Example', '--password-stdin'],
      'correct horse battery\n',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^created admin ops@shop\.example \(usr_[a-z0-9]{20}\)\n$/);
    expect(r.stderr).toBe('');
    const noStdin = kassa(['admin', 'create-user', '--email', 'x@shop.example'], env);
    expect(noStdin.code).toBe(2);
    expect(noStdin.stderr).toContain('--password-stdin');
    const asArgument = kassa(
      ['admin', 'create-user', '--email', 'x@shop.example', '--password', 'hunter22hunter'],
      env,
    );
    expect(asArgument.code).toBe(2);
  });

  it('refuses a password under 12 characters, an email that is taken and an unknown role, creating nothing', () => {
    const short = withStdin(
      ['admin', 'create-user', '--email', 'short@shop.example', '--password-stdin'],
      'elevenchars',
    );
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('at least 12 characters');
    const taken = withStdin(
      ['admin', 'create-user', '--email', 'ops@shop.example', '--password-stdin'],
      'another long password',
    );
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('exists already');
    const role = withStdin(
      ['admin', 'create-user', '--email', 'r@shop.example', '--role', 'owner', '--password-stdin'],
      'another long password',
    );
    expect(role.code).toBe(1);
    expect(role.stderr).toContain('admin or viewer');
    const users = JSON.parse(kassa(['admin', 'users', '--json'], env).stdout) as {
      email: string;
      role: string;
    }[];
    expect(users.map((u) => [u.email, u.role])).toEqual([['ops@shop.example', 'admin']]);
  });

  it('serves the dashboard under /admin of `kassa api` when admin.dashboard is api-port, and the user signs in', async () => {
    const config = join(dir, 'kassa.json');
    writeFileSync(config, JSON.stringify({ admin: { dashboard: 'api-port' } }));
    const port = await freePort();
    const child = spawnKassa(['api', '--config', config], { ...env, PORT: String(port) });
    children.push(child);
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/healthz`);
    const form = await fetch(`${base}/admin/login`);
    expect(form.status).toBe(200);
    const pre = (form.headers.getSetCookie()[0] as string).split(';')[0] as string;
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] as string;
    const signIn = await fetch(`${base}/admin/login`, {
      method: 'POST',
      headers: { cookie: pre, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        csrf,
        email: 'ops@shop.example',
        password: 'correct horse battery',
        next: '/admin',
      }),
      redirect: 'manual',
    });
    expect(signIn.status).toBe(303);
    const session = (signIn.headers.getSetCookie()[0] as string).split(';')[0] as string;
    const overview = await fetch(`${base}/admin`, { headers: { cookie: session } });
    expect(overview.status).toBe(200);
    expect(await overview.text()).toContain('Signed in as ops@shop.example (admin)');
    child.kill('SIGTERM');
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
  });

  it('keeps the dashboard off by default', async () => {
    const port = await freePort();
    const child = spawnKassa(['api'], { ...env, PORT: String(port) });
    children.push(child);
    await waitForHttp(`http://127.0.0.1:${port}/healthz`);
    expect((await fetch(`http://127.0.0.1:${port}/admin/login`)).status).toBe(404);
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  });

  it('sets a new password, turns TOTP off and removes a user', async () => {
    const set = withStdin(
      ['admin', 'set-password', '--email', 'ops@shop.example', '--password-stdin'],
      'a brand new passphrase\n',
    );
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('password set for ops@shop.example');
    expect(kassa(['admin', 'reset-totp', '--email', 'ops@shop.example'], env).code).toBe(0);
    expect(kassa(['admin', 'remove-user', '--email', 'nobody@shop.example'], env).code).toBe(1);
    expect(kassa(['admin', 'remove-user', '--email', 'ops@shop.example'], env).code).toBe(0);
    expect(JSON.parse(kassa(['admin', 'users', '--json'], env).stdout)).toEqual([]);
  });
});
