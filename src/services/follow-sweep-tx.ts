import type { ChainAdapter, ChainHeads, RecordedSpend, TokenSpec } from '../chains/port.ts';
import { describeVerdict } from '../chains/slot-verdict.ts';
import type { NewOperatorCost, Sweep, SweepTx, SweepTxUpdate } from '../db/store.ts';
import { familyOf } from '../domain/chains.ts';
import type { HotWallet } from '../keys/key-ring.ts';
import type { Logger } from '../lib/logger.ts';
import type { Deps } from './deps.ts';
import type { ResolvedSweepSettings } from './sweep-settings.ts';

/** What advancing a sweep needs: the deps, the chain, its settings, the hot wallet, the heads now. */
export interface SweepRun {
  deps: Pick<Deps, 'db' | 'clock' | 'logger' | 'keys' | 'config'>;
  adapter: ChainAdapter;
  settings: ResolvedSweepSettings;
  hot: HotWallet;
  native: TokenSpec;
  heads: ChainHeads;
  log: Logger;
}

/** A broadcast transaction the node does not show is sent again (the same bytes) at most this often. */
const RESEND_AFTER_MS = 30_000;

export const LIVE_TX: readonly SweepTx['status'][] = ['signed', 'broadcast', 'mined'];

const spend = (t: {
  txHash: string;
  rawTx: string;
  nonce: number | null;
  validUntil: number | null;
}): RecordedSpend => ({
  txHash: t.txHash,
  raw: t.rawTx,
  nonce: t.nonce,
  validUntil: t.validUntil,
});

/** The cost a final (or failed) transaction of a sweep puts on the operator, if any. */
function costOf(run: SweepRun, sweep: Sweep, tx: SweepTx, fee: bigint | null): NewOperatorCost[] {
  const base = {
    chain: sweep.chain,
    symbol: run.native.symbol,
    decimals: run.native.decimals,
    sweepId: sweep.id,
    txHash: tx.txHash,
  };
  const tron = familyOf(run.adapter.chain) === 'tron';
  switch (tx.role) {
    case 'topup': {
      const sent = tx.status === 'final' ? BigInt(tx.valueBase) : 0n;
      return [{ ...base, kind: tron ? 'energy' : 'gas_topup', amountBase: (sent + (fee ?? 0n)).toString() }];
    }
    case 'delegate':
    case 'undelegate':
      return fee === null ? [] : [{ ...base, kind: 'energy', amountBase: fee.toString() }];
    case 'transfer':
      // a topped-up transfer burns what the top-up (already a cost) sent; a sponsored or native one is paid here
      return sweep.feeMode === 'sponsor' || sweep.feeMode === 'self'
        ? fee === null
          ? []
          : [{ ...base, kind: 'sweep_fee', amountBase: fee.toString() }]
        : [];
  }
}

/**
 * Sends a stored transaction (again: the same bytes are harmless) and records what the chain says:
 * mined and final → final (or failed), with its fee and cost; not known to the chain → its slot is
 * judged: `dead` (it can never land) → dropped; `unexplained` (something Kassa did not record used
 * its slot) → the sweep is held for the operator and nothing new is signed for it.
 */
export async function followTx(run: SweepRun, sweep: Sweep, tx: SweepTx): Promise<void> {
  const { adapter, deps } = run;
  const now = () => deps.clock.now();
  const update = async (u: Omit<SweepTxUpdate, 'id'>, costs: NewOperatorCost[] = []) =>
    deps.db.recordSweepStep({ txs: [{ id: tx.id, ...u }], costs, now: now() });
  let status = tx.status;
  const send = async () => {
    const result = await adapter.broadcast({ raw: tx.rawTx, txHash: tx.txHash });
    if (result.ok) {
      if (status === 'signed') await update({ status: 'broadcast' });
      status = 'broadcast';
    } else if (!result.permanent) {
      run.log.warn(
        { sweepId: sweep.id, txid: tx.txHash, error: result.error },
        'sweep broadcast refused; will retry',
      );
    }
  };
  if (status === 'signed') await send();
  let seen = await adapter.lookup(tx.txHash);
  if (seen.state === 'unknown' && tx.status === 'broadcast' && now() - tx.updatedAt >= RESEND_AFTER_MS) {
    // not in a block yet, and not for a while: the node may have forgotten it (restarted, evicted)
    await send();
    await update({ status: 'broadcast' }); // resent now: the next resend waits again
    seen = await adapter.lookup(tx.txHash);
  }
  if (seen.state === 'mined') {
    if (seen.blockNum > run.heads.final) {
      if (status !== 'mined') await update({ status: 'mined', blockNum: seen.blockNum });
      return;
    }
    const fee = adapter.feePaid ? await adapter.feePaid(tx.txHash) : null;
    const done = { ...tx, status: seen.success ? ('final' as const) : ('failed' as const) };
    await update(
      {
        status: done.status,
        blockNum: seen.blockNum,
        feeBase: fee?.toString() ?? null,
        feePayer: tx.role === 'transfer' && sweep.feeMode === 'sponsor' ? run.hot.address : tx.fromAddress,
        error: seen.success ? null : (seen.error ?? 'failed on chain'),
      },
      costOf(run, sweep, done, fee),
    );
    const now = await deps.db.findSweep(sweep.id);
    if (now?.held) {
      // the transaction that looked replaced by something unknown was ours after all (a lagging node)
      await deps.db.recordSweepStep({
        step: { id: sweep.id, from: now.status, to: now.status, held: false, error: null },
        now: deps.clock.now(),
      });
      run.log.info(
        { sweepId: sweep.id, txid: tx.txHash },
        'sweep no longer held: its transaction is on chain',
      );
    }
    return;
  }
  if (seen.state === 'pending') {
    if (status === 'signed') await update({ status: 'broadcast' });
    return;
  }
  if (status === 'mined') await update({ status: 'broadcast', blockNum: null }); // a reorganisation took it out
  const recorded = [
    ...(await deps.db.sweepSpendsFrom({
      chain: sweep.chain,
      from: tx.fromAddress,
      nonce: tx.nonce,
      except: tx.id,
    })),
    ...(
      await deps.db.recordedSpends({
        chain: sweep.chain,
        from: tx.fromAddress,
        exceptOrder: '',
        nonce: tx.nonce,
      })
    ).map((a) => ({ txHash: a.txHash, rawTx: a.rawTx, nonce: a.nonce, validUntil: a.validUntil })),
  ];
  const verdict = await adapter.judgeSlot({
    from: tx.fromAddress,
    attempts: [spend(tx)],
    recorded: recorded.map(spend),
  });
  if (verdict.state === 'dead') {
    await update({ status: 'dropped', error: verdict.proof });
    run.log.warn(
      { sweepId: sweep.id, txid: tx.txHash, proof: verdict.proof },
      'sweep transaction can never land; it will be signed anew',
    );
  } else if (verdict.state === 'unexplained') {
    if (!sweep.held) {
      const reason = `Its spend slot (${tx.slot ?? 'unknown'}) was used by a transaction Kassa did not record: ${verdict.detail}`;
      await deps.db.recordSweepStep({
        step: { id: sweep.id, from: sweep.status, to: sweep.status, held: true, error: reason },
        now: now(),
      });
      run.log.error({ sweepId: sweep.id, address: sweep.address, txid: tx.txHash }, `sweep held: ${reason}`);
    }
  } else {
    run.log.debug(
      { sweepId: sweep.id, txid: tx.txHash, verdict: describeVerdict(verdict) },
      'sweep transaction not on chain yet',
    );
  }
}
