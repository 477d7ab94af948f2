import type { SignedPayout, TokenSpec } from '../chains/port.ts';
import type { NewSweepTx, Sweep, SweepStatus, SweepTx } from '../db/store.ts';
import { newId } from '../lib/ids.ts';
import type { SweepRun } from './follow-sweep-tx.ts';

// What every step of a sweep's state machine (advance-sweep.ts) uses: waiting, failing, the token it
// moves, the next nonce of an address, and a new transaction's record.

/** A sweep that cannot move on waits 1, 2, 4 … minutes, at most an hour. */
const backoffMs = (tries: number) => Math.min(60, 2 ** Math.min(tries, 6)) * 60_000;

/** The token a sweep moves. */
export const token = (s: Sweep): TokenSpec => ({
  symbol: s.symbol,
  contract: s.tokenContract,
  decimals: s.decimals,
});

/** Puts a sweep back to wait: counts the try, sets when to look again, records why. */
export async function wait(
  run: SweepRun,
  sweep: Sweep,
  reason: string,
  to: SweepStatus = sweep.status,
): Promise<false> {
  const tries = sweep.tries + 1;
  await run.deps.db.recordSweepStep({
    step: {
      id: sweep.id,
      from: sweep.status,
      to,
      error: reason,
      tries,
      nextTryAt: run.deps.clock.now() + backoffMs(tries),
    },
    now: run.deps.clock.now(),
  });
  run.log.warn({ sweepId: sweep.id, address: sweep.address, symbol: sweep.symbol, reason }, 'sweep waits');
  return false;
}

/** Moves a sweep to failed (it is planned again later), writing `extra` in the same transaction, and logs why. */
export async function fail(
  run: SweepRun,
  sweep: Sweep,
  reason: string,
  extra: Omit<Parameters<SweepRun['deps']['db']['recordSweepStep']>[0], 'step' | 'now'> = {},
): Promise<false> {
  await run.deps.db.recordSweepStep({
    ...extra,
    step: { id: sweep.id, from: sweep.status, to: 'failed', error: reason },
    now: run.deps.clock.now(),
  });
  run.log.error(
    { sweepId: sweep.id, address: sweep.address, symbol: sweep.symbol, reason },
    'sweep failed; it is planned again later',
  );
  return false;
}

/** The nonce a new transaction from `address` takes: past the chain's view and past every one recorded. */
export async function nextNonce(run: SweepRun, address: string): Promise<number | null> {
  if (!run.adapter.nextNonce) return null;
  return Math.max(
    await run.adapter.nextNonce(address),
    (await run.deps.db.highestNonce(run.adapter.chain, address)) + 1,
  );
}

/** The record of a transaction a sweep signed, stored before it is broadcast. */
export const newTx = (
  sweep: Sweep,
  role: SweepTx['role'],
  from: string,
  to: string,
  signed: SignedPayout,
  valueBase: bigint,
): NewSweepTx => ({
  id: newId('swt'),
  sweepId: sweep.id,
  chain: sweep.chain,
  role,
  fromAddress: from,
  toAddress: to,
  nonce: signed.nonce,
  txHash: signed.txHash,
  rawTx: signed.raw,
  valueBase: valueBase.toString(),
  status: 'signed',
  validUntil: signed.validUntil,
  slot: signed.slot,
});
