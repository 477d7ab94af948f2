import { isChainError } from '../chains/errors.ts';
import type { ChainAdapter } from '../chains/port.ts';
import type { Sweep, SweepTx } from '../db/store.ts';
import { familyOf } from '../domain/chains.ts';
import { formatAmount } from '../domain/money.ts';
import { type Deps, requireKeys } from './deps.ts';
import { followTx, LIVE_TX, type SweepRun } from './follow-sweep-tx.ts';
import { fail, newTx, nextNonce, token, wait } from './sweep-step.ts';

// The transfer phase of a sweep (advance-sweep.ts): the deposit key moves the balance to the destination.

/**
 * `gas_final`: the deposit key signs the transfer of the whole balance (Sui: the hot wallet signs
 * as gas owner too); it is stored with the move to `signed` and the amount it moves, then broadcast.
 */
export async function signTransfer(run: SweepRun, sweep: Sweep): Promise<boolean> {
  const { adapter, hot } = run;
  if (!adapter.signSweep) return fail(run, sweep, `${adapter.chain} cannot sweep`);
  const keys = requireKeys(run.deps as Deps);
  const privateKey = keys.depositKey(familyOf(adapter.chain), sweep.depositIndex);
  let signed: Awaited<ReturnType<NonNullable<ChainAdapter['signSweep']>>>;
  try {
    signed = await adapter.signSweep({
      privateKey,
      from: sweep.address,
      to: sweep.destination,
      token: token(sweep),
      nonce: await nextNonce(run, sweep.address),
      ...(sweep.feeMode === 'sponsor'
        ? { sponsor: { address: hot.address, privateKey: hot.privateKey } }
        : {}),
    });
  } catch (error) {
    if (isChainError(error, 'wallet_underfunded')) {
      if (sweep.feeMode === 'topup')
        // fees rose since the top-up: top up the difference (the old one is final, so this adds to it)
        return wait(
          run,
          sweep,
          `The top-up no longer covers the transfer: ${(error as Error).message}`,
          'planned',
        );
      return wait(run, sweep, (error as Error).message);
    }
    if (isChainError(error, 'wallet_busy')) return wait(run, sweep, (error as Error).message);
    if (isChainError(error, 'payout_rejected')) return fail(run, sweep, error.message);
    throw error;
  }
  await run.deps.db.recordSweepStep({
    step: {
      id: sweep.id,
      from: 'gas_final',
      to: 'signed',
      amountBase: signed.amountBase.toString(),
      error: null,
    },
    newTxs: [newTx(sweep, 'transfer', sweep.address, sweep.destination, signed, signed.amountBase)],
    now: run.deps.clock.now(),
  });
  run.log.info(
    {
      sweepId: sweep.id,
      address: sweep.address,
      txid: signed.txHash,
      amount: formatAmount(signed.amountBase, sweep.decimals),
      symbol: sweep.symbol,
    },
    'sweep transfer signed',
  );
  return true;
}

/**
 * `signed` / `broadcast`: sends the stored transfer (again) and follows it. Final and successful →
 * TRON: takes the lent energy back first; then final. Failed on chain → failed (planned again
 * later). Proven dead → gas_final, to be signed anew.
 */
export async function followTransfer(run: SweepRun, sweep: Sweep, txs: SweepTx[]): Promise<boolean> {
  const transfer = txs.filter((t) => t.role === 'transfer').at(-1);
  if (!transfer) {
    await run.deps.db.recordSweepStep({
      step: { id: sweep.id, from: sweep.status, to: 'gas_final' },
      now: run.deps.clock.now(),
    });
    return true;
  }
  if (LIVE_TX.includes(transfer.status)) await followTx(run, sweep, transfer);
  const after = await run.deps.db.sweepTxsOf(sweep.id);
  const t = after.find((x) => x.id === transfer.id) as SweepTx;
  const now = run.deps.clock.now();
  if (t.status === 'signed') return false;
  if (t.status === 'broadcast' || t.status === 'mined') {
    if (sweep.status === 'signed') {
      await run.deps.db.recordSweepStep({ step: { id: sweep.id, from: 'signed', to: 'broadcast' }, now });
      return true;
    }
    return false;
  }
  if (t.status === 'dropped') {
    await run.deps.db.recordSweepStep({
      step: { id: sweep.id, from: sweep.status, to: 'gas_final', error: t.error },
      now,
    });
    return true;
  }
  if (t.status === 'failed')
    return fail(run, sweep, `The transfer failed on chain: ${t.error ?? 'reverted'}`);
  // final: take back lent energy, then done
  const lent = after.find((x) => x.role === 'delegate' && x.status === 'final');
  const reclaim = after.filter((x) => x.role === 'undelegate');
  if (lent && run.adapter.signDelegation) {
    const live = reclaim.find((x) => x.status !== 'dropped');
    if (!live) {
      const signed = await run.adapter.signDelegation({
        privateKey: run.hot.privateKey,
        from: run.hot.address,
        to: sweep.address,
        sun: BigInt(lent.valueBase),
        reclaim: true,
      });
      await run.deps.db.recordSweepStep({
        step: { id: sweep.id, from: sweep.status, to: 'broadcast' },
        newTxs: [newTx(sweep, 'undelegate', run.hot.address, sweep.address, signed, BigInt(lent.valueBase))],
        now,
      });
      return true;
    }
    if (LIVE_TX.includes(live.status)) {
      await followTx(run, sweep, live);
      const again = (await run.deps.db.sweepTxsOf(sweep.id)).find((x) => x.id === live.id);
      if (again && LIVE_TX.includes(again.status)) return false;
      return true;
    }
  }
  await run.deps.db.recordSweepStep({
    step: { id: sweep.id, from: sweep.status, to: 'final', error: null },
    now,
  });
  run.log.info(
    {
      sweepId: sweep.id,
      address: sweep.address,
      txid: t.txHash,
      amount: formatAmount(BigInt(t.valueBase), sweep.decimals),
      symbol: sweep.symbol,
      to: sweep.destination,
    },
    'sweep final',
  );
  return false;
}
