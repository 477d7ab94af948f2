import { isChainError } from '../chains/errors.ts';
import type { SignedPayout } from '../chains/port.ts';
import type { Sweep, SweepTx } from '../db/store.ts';
import { formatAmount } from '../domain/money.ts';
import { followTx, LIVE_TX, type SweepRun } from './follow-sweep-tx.ts';
import { fail, newTx, nextNonce, token, wait } from './sweep-step.ts';

// The gas phase of a sweep (advance-sweep.ts): the hot wallet pays the deposit address's fees.

/**
 * `planned`: prices the sweep again; a top-up (EVM, TRON) or energy lending (TRON) is signed from
 * the hot wallet and stored with the move to gas_sent, then broadcast; without one (Sui, native
 * sweeps, an address that already holds its gas) the sweep goes straight to gas_final.
 */
export async function sendGas(run: SweepRun, sweep: Sweep): Promise<boolean> {
  const { adapter, settings, hot } = run;
  if (!adapter.sweepQuote) return fail(run, sweep, `${adapter.chain} cannot sweep`);
  const quote = await adapter.sweepQuote({
    from: sweep.address,
    to: sweep.destination,
    hot: hot.address,
    token: token(sweep),
    margin: settings.feeMargin,
    delegate: settings.delegateEnergy && sweep.feeMode === 'delegate',
  });
  if (quote.amountBase === 0n) return fail(run, sweep, 'The address holds nothing to sweep any more.');
  const now = run.deps.clock.now();
  if (quote.topUpBase === 0n && quote.delegateSun === 0n) {
    await run.deps.db.recordSweepStep({
      step: { id: sweep.id, from: 'planned', to: 'gas_final', error: null },
      now,
    });
    return true;
  }
  let signed: SignedPayout;
  let role: SweepTx['role'] = 'topup';
  let value = quote.topUpBase;
  try {
    if (quote.topUpBase > 0n) {
      signed = await adapter.signPayout({
        privateKey: hot.privateKey,
        from: hot.address,
        to: sweep.address,
        token: run.native,
        amountBase: quote.topUpBase,
        nonce: await nextNonce(run, hot.address),
      });
    } else {
      if (!adapter.signDelegation) return fail(run, sweep, `${adapter.chain} cannot lend energy`);
      signed = await adapter.signDelegation({
        privateKey: hot.privateKey,
        from: hot.address,
        to: sweep.address,
        sun: quote.delegateSun,
        reclaim: false,
      });
      role = 'delegate';
      value = quote.delegateSun;
    }
  } catch (error) {
    if (isChainError(error, 'wallet_underfunded') || isChainError(error, 'wallet_busy'))
      return wait(run, sweep, `The hot wallet cannot pay the sweep's fees now: ${(error as Error).message}`);
    throw error;
  }
  await run.deps.db.recordSweepStep({
    step: { id: sweep.id, from: 'planned', to: 'gas_sent', error: null },
    newTxs: [newTx(sweep, role, hot.address, sweep.address, signed, value)],
    now,
  });
  run.log.info(
    {
      sweepId: sweep.id,
      address: sweep.address,
      txid: signed.txHash,
      role,
      value: formatAmount(value, run.native.decimals),
    },
    role === 'topup' ? 'sweep gas top-up signed' : 'sweep energy lending signed',
  );
  const [stored] = (await run.deps.db.sweepTxsOf(sweep.id)).filter((t) => t.txHash === signed.txHash);
  if (stored) await followTx(run, sweep, stored);
  return false; // the top-up must be final before the transfer is signed
}

/**
 * `gas_sent`: follows the hot wallet's transactions. All final → gas_final (TRON: an activation
 * top-up final but energy still to lend → lends it). One proven dead → planned again (it never
 * landed, so a new one cannot double it). One failed on chain → planned again, its fee a cost.
 */
export async function followGas(run: SweepRun, sweep: Sweep, txs: SweepTx[]): Promise<boolean> {
  const gas = txs.filter((t) => t.role === 'topup' || t.role === 'delegate');
  for (const t of gas.filter((t) => LIVE_TX.includes(t.status))) await followTx(run, sweep, t);
  const now = await run.deps.db.sweepTxsOf(sweep.id);
  const current = now.filter((t) => t.role === 'topup' || t.role === 'delegate');
  if (current.some((t) => LIVE_TX.includes(t.status))) return false;
  if (current.some((t) => t.status === 'dropped' || t.status === 'failed')) {
    await run.deps.db.recordSweepStep({
      step: {
        id: sweep.id,
        from: 'gas_sent',
        to: 'planned',
        error: 'A fee transaction did not land; priced again.',
      },
      now: run.deps.clock.now(),
    });
    return true;
  }
  const fresh = (await run.deps.db.findSweep(sweep.id)) ?? sweep;
  if (fresh.held) return false;
  if (sweep.feeMode === 'delegate' && !current.some((t) => t.role === 'delegate')) {
    // the activation is final; lend the energy now (priced again from `planned`, so a crash resumes there)
    await run.deps.db.recordSweepStep({
      step: { id: sweep.id, from: 'gas_sent', to: 'planned' },
      now: run.deps.clock.now(),
    });
    return sendGas(run, { ...fresh, status: 'planned' });
  }
  await run.deps.db.recordSweepStep({
    step: { id: sweep.id, from: 'gas_sent', to: 'gas_final', error: null },
    now: run.deps.clock.now(),
  });
  return true;
}
