import { createLogger, type Logger } from '../lib/logger.ts';

/** Writes one JSON value on stdout (the data channel of CLI commands). */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Prints rows as an aligned text table on stdout. */
export function printTable(rows: Record<string, unknown>[]): void {
  if (rows.length === 0) {
    process.stdout.write('(none)\n');
    return;
  }
  const keys = Object.keys(rows[0] as object);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k] ?? '').length)));
  const line = (cells: string[]) => `${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')}\n`;
  process.stdout.write(line(keys));
  for (const r of rows) process.stdout.write(line(keys.map((k) => String(r[k] ?? ''))));
}

/** A usage error: the message goes to stderr with exit code 2. */
export class UsageError extends Error {}

/**
 * The logger of a command run by a person (not a server): JSON logs on stderr only for errors, so
 * retries and progress do not bury the answer, unless `--verbose` (debug), `--log-level L` or
 * KASSA_LOG_LEVEL asks for more.
 */
export function commandLogger(
  flags: Record<string, string | boolean | undefined>,
  env: Record<string, string | undefined> = process.env,
): Logger {
  const asked = typeof flags['log-level'] === 'string' ? flags['log-level'] : undefined;
  const level = asked ?? (flags.verbose ? 'debug' : env.KASSA_LOG_LEVEL || 'error');
  return createLogger({ level, destination: 2 });
}
