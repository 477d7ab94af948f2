/** Writes one line of progress to stderr (stdout carries only the figures). */
export function log(msg: string, extra: Record<string, unknown> = {}): void {
  process.stderr.write(
    `${new Date().toISOString()} ${msg} ${Object.keys(extra).length ? JSON.stringify(extra) : ''}\n`,
  );
}
