/**
 * Entry of the single-file build (scripts/build.ts bundles this into dist/kassa.mjs). The same CLI
 * as bin/kassa.mjs, minus the TypeScript loader: a `--config` file must be JSON (or a plain .js/.mjs
 * module), and a .ts config is refused here with a way out instead of a loader error.
 */
import { main } from '../src/main.ts';

/** The `--config` value of argv (`--config FILE` or `--config=FILE`), if any. */
export function configArg(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--config') return argv[i + 1];
    if (arg.startsWith('--config=')) return arg.slice('--config='.length);
  }
  return undefined;
}

const argv = process.argv.slice(2);
const config = configArg(argv);
if (config && /\.[cm]?tsx?$/i.test(config)) {
  process.stderr.write(
    `kassa.mjs (the single-file build) cannot load the TypeScript config ${config}: it carries no TypeScript loader.\n` +
      'Give the same settings as JSON (--config kassa.json; see docs/operations.md), or run bin/kassa.mjs from a full checkout.\n',
  );
  process.exit(2);
}
await main(argv, async () => (await import('../workers/process.ts')).startKassaWorker);
