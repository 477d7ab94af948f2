import type { Sweep } from '../db/store.ts';
import type { SweepRun } from './follow-sweep-tx.ts';
import { followGas, sendGas } from './sweep-gas.ts';
import { followTransfer, signTransfer } from './sweep-transfer.ts';

export type { SweepRun } from './follow-sweep-tx.ts';

/**
 * Moves one sweep as far as it can go now without waiting (DESIGN.md section 11), with the payouts'
 * discipline: every transaction is signed, stored, and only then broadcast; after a crash the
 * stored bytes go out again, and a transaction is signed anew only once the old one is proven
 * unable to land (its slot judged `dead`). States:
 * planned → (top-up or energy lent from the hot wallet, signed and stored) gas_sent → (final)
 * gas_final → (transfer signed by the deposit key and stored) signed → broadcast → final, or failed
 * (the transfer failed on chain, or the chain refuses it for good). Costs are recorded as each
 * transaction of the hot wallet (or a native sweep) becomes final. Returns the sweep as it is now.
 */
export async function advanceSweep(run: SweepRun, start: Sweep): Promise<Sweep> {
  let sweep = start;
  for (let i = 0; i < 8; i++) {
    const moved = await step(run, sweep);
    const fresh = await run.deps.db.findSweep(sweep.id);
    if (!fresh) return sweep;
    sweep = fresh;
    if (!moved || sweep.status === 'final' || sweep.status === 'failed') break;
  }
  return sweep;
}

/** One step; true when the sweep moved (and may move again now). */
async function step(run: SweepRun, sweep: Sweep): Promise<boolean> {
  const txs = await run.deps.db.sweepTxsOf(sweep.id);
  switch (sweep.status) {
    case 'planned':
      return sendGas(run, sweep);
    case 'gas_sent':
      return followGas(run, sweep, txs);
    case 'gas_final':
      return signTransfer(run, sweep);
    case 'signed':
    case 'broadcast':
      return followTransfer(run, sweep, txs);
    default:
      return false;
  }
}
