import { sleep } from '../../src/lib/backoff.ts';
import { log } from './log.ts';
import { type KassaProcesses, type Mode, stop } from './processes.ts';
import type { Chance } from './random.ts';

/** How many times the soak SIGKILLed `kassa worker` and `kassa start`. */
export interface Kills {
  worker: number;
  start: number;
}

/**
 * Until `until`: every 10 to 40 s, SIGKILLs the worker (mode `split`) or `kassa start` (mode
 * `start`) and starts it again, switching modes every second kill. Counts the kills in `kills`.
 */
export async function killOnSchedule(
  kassa: KassaProcesses,
  chance: Chance,
  until: number,
  kills: Kills,
): Promise<void> {
  const { between } = chance;
  let mode: Mode = 'split';
  let killsInMode = 0;
  while (Date.now() < until) {
    await sleep(between(10_000, 40_000));
    if (Date.now() >= until) break;
    if (mode === 'split') {
      await stop(kassa.procs.worker, 'SIGKILL');
      kills.worker++;
    } else {
      await stop(kassa.procs.start, 'SIGKILL');
      kills.start++;
    }
    log('killed', { mode, kills });
    await sleep(between(200, 3_000));
    if (++killsInMode >= 2) {
      mode = mode === 'split' ? 'start' : 'split';
      killsInMode = 0;
    }
    await kassa.run(mode);
  }
}
