import { isChainError } from '../chains/errors.ts';
import type { ChainAdapter, SignedPayout, TokenSpec } from '../chains/port.ts';
import type { NewSweepTx, Sweep, SweepStatus, SweepTx } from '../db/store.ts';
import { familyOf } from '../domain/chains.ts';
import { formatAmount } from '../domain/money.ts';
import { newId } from '../lib/ids.ts';
import { type Deps, requireKeys } from './deps.ts';
import { followTx, LIVE_TX, type SweepRun } from './follow-sweep-tx.ts';

export type { SweepRun } from './follow-sweep-tx.ts';

/** A sweep that cannot move on waits 1, 2, 4 … minutes, at most an hour. */
const backoffMs = (tries: number) => Math.min(60, 2 ** Math.min(tries, 6)) * 60_000;

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

const token = (s: Sweep): TokenSpec => ({
  symbol: s.symbol,
  contract: s.tokenContract,
  decimals: s.decimals,
});

/** Puts a sweep back to wait: counts the try, sets when to look again, records why. */
async function wait(
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

async function fail(
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
async function nextNonce(run: SweepRun, address: string): Promise<number | null> {
  if (!run.adapter.nextNonce) return null;
  return Math.max(
    await run.adapter.nextNonce(address),
    (await run.deps.db.highestNonce(run.adapter.chain, address)) + 1,
  );
}

const newTx = (
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

/**
 * `planned`: prices the sweep again; a top-up (EVM, TRON) or energy lending (TRON) is signed from
 * the hot wallet and stored with the move to gas_sent, then broadcast; without one (Sui, native
 * sweeps, an address that already holds its gas) the sweep goes straight to gas_final.
 */
async function sendGas(run: SweepRun, sweep: Sweep): Promise<boolean> {
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
async function followGas(run: SweepRun, sweep: Sweep, txs: SweepTx[]): Promise<boolean> {
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

/**
 * `gas_final`: the deposit key signs the transfer of the whole balance (Sui: the hot wallet signs
 * as gas owner too); it is stored with the move to `signed` and the amount it moves, then broadcast.
 */
async function signTransfer(run: SweepRun, sweep: Sweep): Promise<boolean> {
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
async function followTransfer(run: SweepRun, sweep: Sweep, txs: SweepTx[]): Promise<boolean> {
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
