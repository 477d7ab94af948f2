import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The import arrows of STYLE.md are checked by dependency-cruiser (.dependency-cruiser.cjs, run by
 * `npm test` as `npm run deps`). Here: the real tree passes, and a tree with one violation of each
 * rule planted in it fails with exactly those rules, so the checker is known to bite. Below them, the
 * same for the size of files: the real tree keeps the limit, a planted long file is named.
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

/**
 * One concept per file (STYLE.md): no TypeScript file is over 300 lines, wherever it lives (product,
 * tests, benchmarks, scripts, the client), except the devnet, whose fake nodes follow the real
 * nodes' APIs (it stays out of the production build). Folders that tools fill (node_modules, dist)
 * are not ours and are skipped.
 */
const MAX_LINES = 300;
const SIZED_FOLDERS = ['src', 'workers', 'test', 'bench', 'scripts', 'clients', 'bin'];
const UNSIZED_FOLDERS = new Set(['node_modules', 'dist']);

/** The .ts/.tsx files under the sized folders of `cwd` over the limit (`path: N lines`), and how many were read. */
function fileSizes(cwd: string): { long: string[]; checked: number } {
  const long: string[] = [];
  let checked = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const rel = relative(cwd, path);
      if (entry.isDirectory()) {
        if (!UNSIZED_FOLDERS.has(entry.name) && rel !== 'src/devnet') walk(path);
        continue;
      }
      if (!/\.tsx?$/.test(entry.name)) continue;
      checked++;
      const text = readFileSync(path, 'utf8');
      const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      if (lines > MAX_LINES) long.push(`${rel}: ${lines} lines`);
    }
  };
  for (const folder of SIZED_FOLDERS) if (existsSync(join(cwd, folder))) walk(join(cwd, folder));
  return { long: long.sort(), checked };
}

describe('file size', () => {
  it(`no TypeScript file outside the devnet is over ${MAX_LINES} lines`, () => {
    const { long, checked } = fileSizes(root);
    expect(checked).toBeGreaterThan(500); // the walk reaches the tree
    expect(long).toEqual([]);
  });

  it('names every planted file over the limit, and only those', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kassa-sizes-'));
    temp.push(dir);
    const lines = (n: number) => 'export const x = 1;\n'.repeat(n);
    const files: Record<string, string> = {
      'src/services/long.ts': lines(301),
      'bench/long/report.tsx': lines(450),
      'clients/typescript/src/long.ts': `${lines(300)}export const y = 2;`, // no final newline: 301
      'test/helpers/exactly-300.ts': lines(300),
      'scripts/short.ts': lines(12),
      'src/devnet/tron/node.ts': lines(900),
      'clients/typescript/node_modules/dep/index.ts': lines(900),
      'workers/notes.md': lines(900),
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    expect(fileSizes(dir)).toEqual({
      long: [
        'bench/long/report.tsx: 450 lines',
        'clients/typescript/src/long.ts: 301 lines',
        'src/services/long.ts: 301 lines',
      ],
      checked: 5,
    });
  });
});
