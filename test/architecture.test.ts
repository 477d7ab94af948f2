import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The import arrows of STYLE.md are checked by dependency-cruiser (.dependency-cruiser.cjs, run by
 * `npm test` as `npm run deps`). Here: the real tree passes, and a tree with one violation of each
 * rule planted in it fails with exactly those rules, so the checker is known to bite.
 */
const root = resolve(import.meta.dirname, '..');
const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

function cruise(cwd: string): { violations: Violation[]; modules: number } {
  const bin = join(root, 'node_modules/.bin/depcruise');
  const run = spawnSync(
    bin,
    ['src', 'workers', '--config', '.dependency-cruiser.cjs', '--output-type', 'json', '--no-progress'],
    { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  if (!run.stdout) throw new Error(`depcruise printed nothing: ${run.stderr}`);
  const out = JSON.parse(run.stdout) as {
    summary: { violations: Violation[]; totalCruised: number };
  };
  return { violations: out.summary.violations, modules: out.summary.totalCruised };
}

/** A scratch project with the real checker configuration and `files` (path → source) in it. */
function plant(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-arrows-'));
  temp.push(dir);
  cpSync(join(root, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  cpSync(join(root, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const [path, text] of Object.entries({ 'workers/main.ts': 'export {};\n', ...files })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('import rules (dependency-cruiser)', () => {
  it('the product code keeps every rule', () => {
    const { violations, modules } = cruise(root);
    expect(modules).toBeGreaterThan(300); // the check is not vacuous
    expect(violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  });

  it('fails on violations planted in a tree, naming the rule each breaks', () => {
    const dir = plant({
      'src/domain/order.ts': "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
      'src/lib/clock.ts': "import { z } from 'zod';\nexport const y = z;\n",
      'src/db/store.ts': 'export interface Store {}\n',
      'src/db/client.ts': "import Database from 'better-sqlite3';\nexport const db = Database;\n",
      'src/services/create-order.ts': [
        "import type { Store } from '../db/store.ts';",
        "import { db } from '../db/client.ts';",
        "import { Hono } from 'hono';",
        "import Database from 'better-sqlite3';",
        "import { createPublicClient } from 'viem';",
        "import { loadConfig } from '../config/load.ts';",
        'export const s: Store | null = null;',
        'export const all = [db, Hono, Database, createPublicClient, loadConfig];',
        '',
      ].join('\n'),
      'src/config/load.ts': 'export function loadConfig() {}\n',
      'src/http/routes/order.ts': "import { db } from '../../db/client.ts';\nexport const r = db;\n",
      'src/chains/evm/adapter.ts':
        "import { s } from '../../services/create-order.ts';\nexport const a = s;\n",
      'src/chains/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
      'src/chains/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
      'src/cli/run.ts':
        "import '../../workers/main.ts';\nimport { s } from './sandbox.ts';\nexport const r = s;\n",
      'src/cli/sandbox.ts': "import { n } from '../devnet/node.ts';\nexport const s = n;\n",
      'src/cli/merchant.ts': "import { n } from '../devnet/node.ts';\nexport const m = n;\n",
      'src/devnet/node.ts': "import { f } from '../../test/fixtures/token.ts';\nexport const n = f;\n",
      'test/fixtures/token.ts': 'export const f = 1;\n',
      'src/keys/hd.ts': "import { db } from '../db/client.ts';\nexport const k = db;\n",
    });
    const found = cruise(dir).violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    const broken = (rule: string, from: string, to: RegExp) =>
      expect(found.some((f) => f.startsWith(`${rule}: ${from} → `) && to.test(f))).toBe(true);
    broken('domain-is-pure', 'src/domain/order.ts', /fs$/);
    broken('lib-node-and-pino-only', 'src/lib/clock.ts', /zod/);
    broken('services-know-no-http-driver-or-sdk', 'src/services/create-order.ts', /hono/);
    broken('services-know-no-http-driver-or-sdk', 'src/services/create-order.ts', /viem/);
    broken('environment-read-by-bootstrap-only', 'src/services/create-order.ts', /config\/load\.ts$/);
    broken('http-through-services', 'src/http/routes/order.ts', /db\/client\.ts$/);
    broken('services-reach-the-database-through-the-port', 'src/services/create-order.ts', /client\.ts$/);
    broken('db-only-from-bootstrap-and-services', 'src/http/routes/order.ts', /db\/client\.ts$/);
    broken('drizzle-only-in-db', 'src/services/create-order.ts', /better-sqlite3/);
    broken('sdk-viem-in-its-folder', 'src/services/create-order.ts', /viem/);
    broken('chains-below-services', 'src/chains/evm/adapter.ts', /services/);
    broken('no-circular', 'src/chains/a.ts', /b\.ts$/);
    broken('src-not-workers', 'src/cli/run.ts', /workers\/main\.ts$/);
    broken('devnet-commands-loaded-lazily', 'src/cli/run.ts', /sandbox\.ts$/);
    broken('devnet-only-for-sandbox-and-demo', 'src/cli/merchant.ts', /devnet/);
    broken('product-not-tests', 'src/devnet/node.ts', /test\/fixtures/);
    broken('keys-no-io', 'src/keys/hd.ts', /db\/client\.ts$/);
    // a service may import the port's types
    expect(
      found.some(
        (f) => f.startsWith('services-reach-the-database-through-the-port: ') && f.endsWith('store.ts'),
      ),
    ).toBe(false);
    // the sandbox may import the devnet
    expect(found.some((f) => f.startsWith('devnet-only-for-sandbox-and-demo: src/cli/sandbox.ts'))).toBe(
      false,
    );
  });
});
