import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The import arrows of STYLE.md, checked on the real source: every arrow points down, and each
 * chain SDK stays inside its adapter (and the devnet that fakes its chain).
 */
const root = resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g))
    out.push(m[1] as string);
  for (const m of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1] as string);
  return out.map((spec) => (spec.startsWith('.') ? relative(root, resolve(root, file, '..', spec)) : spec));
}

const all = [...sources('src'), ...sources('workers')];
const violations = (files: string[], forbidden: (spec: string) => boolean) =>
  files.flatMap((f) =>
    importsOf(f)
      .filter(forbidden)
      .map((spec) => `${f} → ${spec}`),
  );
const sdk = /^(viem|tronweb|@mysten\/sui)(\/|$)/;

describe('import arrows', () => {
  it('src never imports workers, except the CLI entry points that start a worker process', () => {
    const library = sources('src').filter((f) => f !== 'src/main.ts' && !f.startsWith('src/cli/'));
    expect(violations(library, (s) => s.startsWith('workers/'))).toEqual([]);
  });

  it('domain imports nothing outside itself', () => {
    expect(violations(sources('src/domain'), (s) => !s.startsWith('src/domain/'))).toEqual([]);
  });

  it('services know nothing of HTTP, drizzle or chain SDKs', () => {
    expect(
      violations(
        sources('src/services'),
        (s) => /^(hono|drizzle-orm|better-sqlite3)(\/|$)/.test(s) || sdk.test(s) || s.startsWith('src/http/'),
      ),
    ).toEqual([]);
  });

  it('http reaches data only through services', () => {
    expect(
      violations(
        sources('src/http'),
        (s) =>
          s.startsWith('src/db/') ||
          s.startsWith('src/chains/') ||
          /^(drizzle-orm|better-sqlite3)(\/|$)/.test(s),
      ),
    ).toEqual([]);
  });

  it('the dashboard, like http, reaches data only through services', () => {
    expect(sources('src/admin').length).toBeGreaterThan(5);
    expect(
      violations(
        sources('src/admin'),
        (s) =>
          s.startsWith('src/db/') ||
          s.startsWith('src/chains/') ||
          /^(drizzle-orm|better-sqlite3)(\/|$)/.test(s),
      ),
    ).toEqual([]);
  });

  it('chain SDKs appear only inside their adapter folder or the devnet that fakes their chain', () => {
    const allowed: Record<string, RegExp> = {
      viem: /^src\/(chains\/evm|devnet\/evm)\//,
      tronweb: /^src\/(chains\/tron|devnet\/tron)\//,
      '@mysten/sui': /^src\/(chains\/sui|devnet\/sui)\//,
    };
    const bad = all.flatMap((f) =>
      importsOf(f)
        .filter((s) => sdk.test(s))
        .filter(
          (s) =>
            !(allowed[s.startsWith('@mysten') ? '@mysten/sui' : (s.split('/')[0] as string)] as RegExp).test(
              f,
            ),
        )
        .map((s) => `${f} → ${s}`),
    );
    expect(bad).toEqual([]);
  });

  it('has files to check (the scan is not vacuous)', () => {
    expect(sources('src/services').length).toBeGreaterThan(5);
    expect(importsOf('src/http/app.ts').some((s) => s.startsWith('src/services/'))).toBe(true);
  });
});
