/**
 * Single-file build: bundles the `kassa` CLI (scripts/bundle-entry.ts → src/main.ts and everything it
 * imports, dynamic imports included) into one ESM file for Node 20+, and lays out beside it what the
 * file cannot contain:
 *
 *   dist/kassa.mjs                       the CLI: `node dist/kassa.mjs start`
 *   dist/kassa.mjs.LEGAL.txt             licence comments of the bundled packages
 *   dist/drizzle/                        the SQL migrations (src/db/migrate.ts looks beside the bundle),
 *                                        PostgreSQL's in dist/drizzle/pg/
 *   dist/node_modules/better-sqlite3/    the native SQLite addon (package.json, lib/, build/Release/*.node)
 *   dist/node_modules/bindings/, file-uri-to-path/   its two small runtime dependencies
 *
 * Only better-sqlite3 stays external (a compiled addon for this Node ABI and platform: build where
 * you run, as the Dockerfile does). `dist/` is self-contained: copy it anywhere with Node 20+.
 * PostgreSQL's client (`pg`) is pure JavaScript and bundled; its optional native binding
 * (`pg-native`, loaded only if asked for) is replaced by a module that says it is not included, and
 * the PostgreSQL migrations ship in dist/drizzle/pg/.
 *
 * The devnets (src/devnet: anvil launcher, fake TRON and Sui nodes, test tokens) are not in it:
 * `kassa sandbox` and `kassa demo` are replaced by scripts/devnet-commands.prod.ts, which tells the
 * user to run them from a checkout, and the build fails if anything else pulls a devnet file in.
 *
 *   npx tsx scripts/build.ts [--outdir DIR] [--sourcemap] [--quiet]
 */
import { cpSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build, type Plugin } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * `require`, `__filename` and `__dirname` for the CommonJS packages inside an ES module bundle
 * (esbuild leaves their `require("node:…")` calls and path globals as they are).
 */
const BANNER = [
  "import { createRequire as __kassaCreateRequire } from 'node:module';",
  "import { fileURLToPath as __kassaFileURLToPath } from 'node:url';",
  "import { dirname as __kassaDirname } from 'node:path';",
  'const require = __kassaCreateRequire(import.meta.url);',
  'const __filename = __kassaFileURLToPath(import.meta.url);',
  'const __dirname = __kassaDirname(__filename);',
].join('\n');

/** The commands that start devnets, as the production build has them (see the header). */
const DEVNET_COMMANDS = /[\\/]src[\\/]cli[\\/](sandbox|demo)\.ts$/;
const withoutDevnets: Plugin = {
  name: 'kassa-without-devnets',
  setup(b) {
    b.onResolve({ filter: /[\\/](sandbox|demo)\.ts$/ }, (args) => {
      const path = resolve(args.resolveDir, args.path);
      return DEVNET_COMMANDS.test(path) ? { path: join(root, 'scripts/devnet-commands.prod.ts') } : undefined;
    });
  },
};

/**
 * pg requires its optional native binding only when `pg.native` is read (Kassa never does) or
 * NODE_PG_FORCE_NATIVE is set: in the bundle that require gets a module that says why it fails,
 * instead of a bare package import the runtime image could not resolve.
 */
const withoutPgNative: Plugin = {
  name: 'kassa-without-pg-native',
  setup(b) {
    b.onResolve({ filter: /^pg-native$/ }, () => ({ path: 'pg-native', namespace: 'kassa-stub' }));
    b.onLoad({ filter: /.*/, namespace: 'kassa-stub' }, () => ({
      contents:
        "throw new Error('pg-native is not part of the kassa build: it uses the JavaScript PostgreSQL client (unset NODE_PG_FORCE_NATIVE)');",
      loader: 'js',
    }));
  },
};

/** Copies a package's runtime files (those listed, relative to its folder) into `<outdir>/node_modules/<name>`. */
function copyPackage(outdir: string, name: string, from: string, files: string[]): void {
  const target = join(outdir, 'node_modules', name);
  for (const f of files) {
    const source = join(from, f);
    if (!existsSync(source)) throw new Error(`${name}: ${f} is missing in ${from} (was it built?)`);
    cpSync(source, join(target, f), { recursive: true });
  }
}

/** Builds into `outdir` (emptied first); returns what it made, from which files, and how long it took. */
export async function buildBundle(
  options: { outdir?: string; sourcemap?: boolean } = {},
): Promise<{ outdir: string; bundleBytes: number; ms: number; inputs: string[] }> {
  const started = Date.now();
  const outdir = resolve(options.outdir ?? join(root, 'dist'));
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { kassa: join(root, 'scripts/bundle-entry.ts') },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    external: ['better-sqlite3'],
    banner: { js: BANNER },
    tsconfig: join(root, 'tsconfig.json'),
    sourcemap: options.sourcemap ? 'linked' : false,
    legalComments: 'linked',
    logLevel: 'warning',
    metafile: true,
    plugins: [withoutDevnets, withoutPgNative],
  });
  const devnetFiles = Object.keys(result.metafile.inputs).filter((f) => f.startsWith('src/devnet/'));
  if (devnetFiles.length > 0) {
    throw new Error(
      `the production build must not contain the devnets, but it reads ${devnetFiles.join(', ')}`,
    );
  }
  // SQLite's migrations, and PostgreSQL's in drizzle/pg/ (src/db/pg/migrate.ts).
  cpSync(join(root, 'drizzle'), join(outdir, 'drizzle'), { recursive: true });
  if (!existsSync(join(outdir, 'drizzle/pg/meta/_journal.json')))
    throw new Error(
      'drizzle/pg/meta/_journal.json is missing: the PostgreSQL migrations must ship with the build',
    );

  const require = createRequire(join(root, 'package.json'));
  const sqliteDir = dirname(require.resolve('better-sqlite3/package.json'));
  copyPackage(outdir, 'better-sqlite3', sqliteDir, [
    'package.json',
    'LICENSE',
    'lib',
    'build/Release/better_sqlite3.node',
  ]);
  const fromSqlite = createRequire(join(sqliteDir, 'package.json'));
  const bindingsDir = dirname(fromSqlite.resolve('bindings/package.json'));
  copyPackage(outdir, 'bindings', bindingsDir, ['package.json', 'LICENSE.md', 'bindings.js']);
  const fileUriDir = dirname(
    createRequire(join(bindingsDir, 'package.json')).resolve('file-uri-to-path/package.json'),
  );
  copyPackage(outdir, 'file-uri-to-path', fileUriDir, ['package.json', 'LICENSE', 'index.js']);
  return {
    outdir,
    bundleBytes: statSync(join(outdir, 'kassa.mjs')).size,
    ms: Date.now() - started,
    // Files the bundle was built from, relative to the repository (what a build context must hold).
    inputs: Object.keys(result.metafile.inputs),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      outdir: { type: 'string' },
      sourcemap: { type: 'boolean' },
      quiet: { type: 'boolean' },
    },
  });
  const result = await buildBundle({ outdir: values.outdir, sourcemap: values.sourcemap });
  if (!values.quiet) {
    const mb = (result.bundleBytes / 1024 / 1024).toFixed(1);
    process.stdout.write(
      `built ${relative(process.cwd(), join(result.outdir, 'kassa.mjs')) || 'kassa.mjs'} (${mb} MB) with drizzle/ and node_modules/better-sqlite3 in ${result.ms} ms\n`,
    );
  }
}
