import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../../../src/services/sign-webhook.ts';

/**
 * The package as it would be published: it builds with its own tsconfig (no Node types, so no
 * `node:` import can creep in), declares no runtime dependencies, and the built JavaScript works
 * in plain Node, imported by its package name.
 */
const pkgDir = resolve(import.meta.dirname, '..');
const tsc = resolve(pkgDir, '../../node_modules/typescript/bin/tsc');
const out = mkdtempSync(join(tmpdir(), 'kassa-client-build-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('@kassa/client package', () => {
  it('has no runtime dependencies and exports its build', () => {
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    expect(pkg.name).toBe('@kassa/client');
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
  });

  it('builds without Node types and works from the built files', () => {
    const dist = join(out, 'node_modules/@kassa/client');
    const built = spawnSync(
      process.execPath,
      [tsc, '-p', join(pkgDir, 'tsconfig.json'), '--outDir', join(dist, 'dist')],
      {
        encoding: 'utf8',
      },
    );
    expect(built.stdout + built.stderr).toBe('');
    expect(built.status).toBe(0);
    expect(existsSync(join(dist, 'dist/index.d.ts'))).toBe(true);
    symlinkSync(join(pkgDir, 'package.json'), join(dist, 'package.json'));
    const secret = 'c3'.repeat(32);
    const signed = signWebhook(
      {
        eventId: 'evt_9',
        notifyType: 'ORDER_PENDING',
        dataText: '{"orderId":"A"}',
        timestamp: 1,
        nonce: 'n',
      },
      secret,
    );
    const script = join(out, 'check.mjs');
    writeFileSync(
      script,
      `import { verifyWebhook, KassaClient } from '@kassa/client';
       const e = await verifyWebhook(process.argv[2], JSON.parse(process.argv[3]), '${secret}', { now: () => 1000 });
       new KassaClient({ baseUrl: 'http://127.0.0.1:1', token: 't' });
       console.log(e.eventId);`,
    );
    const run = spawnSync(process.execPath, [script, signed.body, JSON.stringify(signed.headers)], {
      encoding: 'utf8',
      cwd: out,
    });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('evt_9');
  });
});
