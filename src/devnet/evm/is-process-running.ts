import { readFileSync } from 'node:fs';

/**
 * Whether `pid` is a running process. A zombie (exited, not yet reaped: e.g. an orphan whose new parent
 * never waits for it) counts as not running. Reads /proc where it exists, else probes with signal 0.
 */
export function isProcessRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) S ...": the state follows the last ')' since comm may contain spaces or parentheses.
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return probe(pid);
    return process.platform === 'linux' ? false : probe(pid);
  }
}

function probe(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
