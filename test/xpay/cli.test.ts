import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KASSA_BIN, kassa } from '../helpers/cli.ts';
import { TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';
import { XPAY_KEYS } from '../helpers/xpay.ts';

/** `kassa merchant create --compat`, `--import-secrets`, `set-compat` and `list`, as an operator runs them. */
const dir = mkdtempSync(join(tmpdir(), 'kassa-xpay-cli-'));
const env = {
  KASSA_DB: join(dir, 'kassa.db'),
  KASSA_MASTER_KEY: TEST_MASTER_KEY,
  KASSA_MNEMONIC: TEST_MNEMONIC,
};
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `kassa …` with `input` on standard input. */
function kassaWithInput(args: string[], input: string) {
  const r = spawnSync(process.execPath, [KASSA_BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', KASSA_ADMIN_PORT: '0', ...env },
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('kassa merchant and the XPay compatibility mode', () => {
  let imported = '';
  let fresh = '';

  it('creates a merchant in XPay mode that keeps its XPay apiKey and apiSecret, read from standard input', () => {
    expect(kassa(['migrate'], env).code).toBe(0);
    const r = kassaWithInput(
      ['merchant', 'create', '--kind', 'V3', '--compat', 'xpay', '--import-secrets', '-'],
      JSON.stringify({ apiKey: XPAY_KEYS.token, apiSecret: XPAY_KEYS.webhookSecret }),
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created).toEqual({
      merchantId: expect.stringMatching(/^mch_/),
      kind: 'V3',
      compat: 'xpay',
      ...XPAY_KEYS,
    });
    imported = created.merchantId;

    const again = kassaWithInput(
      ['merchant', 'create', '--kind', 'V3', '--compat', 'xpay', '--import-secrets', '-'],
      JSON.stringify(XPAY_KEYS),
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Another merchant already has this token.');
    expect(again.stderr).not.toContain(XPAY_KEYS.webhookSecret);
  });

  it('takes the secrets from a file, only in XPay mode, and refuses a bad mode', () => {
    const file = join(dir, 'keys.json');
    writeFileSync(
      file,
      JSON.stringify({ token: `y${XPAY_KEYS.token}`, webhookSecret: XPAY_KEYS.webhookSecret }),
    );
    const spec = kassa(['merchant', 'create', '--kind', 'V3', '--import-secrets', file], env);
    expect(spec.code).toBe(1);
    expect(spec.stderr).toContain(
      'Secrets can only be imported for a merchant in XPay mode (--compat xpay).',
    );
    const bad = kassa(['merchant', 'create', '--kind', 'V3', '--compat', 'stripe'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('the mode is one of none, xpay');
    const made = kassa(['merchant', 'create', '--kind', 'V2', '--compat', 'XPAY'], env);
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({
      kind: 'V2',
      compat: 'xpay',
      token: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    fresh = JSON.parse(made.stdout).merchantId;
  });

  it('lists the mode of every merchant and changes it with set-compat, saying to rotate a token that left XPay mode', () => {
    const list = () =>
      Object.fromEntries(
        (
          JSON.parse(kassa(['merchant', 'list', '--json'], env).stdout) as {
            merchantId: string;
            compat: string;
          }[]
        ).map((m) => [m.merchantId, m.compat]),
      );
    expect(list()).toEqual({ [imported]: 'xpay', [fresh]: 'xpay' });
    const table = kassa(['merchant', 'list'], env).stdout;
    expect(table.split('\n')[0]).toContain('compat');
    expect(table).not.toContain(XPAY_KEYS.token);

    const off = kassa(['merchant', 'set-compat', fresh, 'none'], env);
    expect(off.code).toBe(0);
    expect(off.stderr).toContain(`compatibility mode of ${fresh} set to none (was xpay)`);
    expect(off.stderr).toContain(`kassa merchant rotate-token ${fresh}`);
    expect(list()).toEqual({ [imported]: 'xpay', [fresh]: 'none' });
    const on = kassa(['merchant', 'set-compat', fresh, 'xpay'], env);
    expect(on.stderr).not.toContain('rotate-token');
    expect(kassa(['merchant', 'set-compat', fresh, 'both'], env).code).toBe(2);
    expect(kassa(['merchant', 'set-compat', 'mch_nobody', 'none'], env).code).toBe(1);
  });
});
