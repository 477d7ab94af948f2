import { isChainError } from '../chains/errors.ts';
import type { ChainAdapter, SignedPayout } from '../chains/port.ts';
import type { NewAttempt, PayoutAttempt } from '../db/store.ts';
import type { Order, OrderTransaction } from '../domain/order.ts';
import { transition } from '../domain/order-state.ts';
import { newId } from '../lib/ids.ts';
import { type Deps, requireKeys } from './deps.ts';
import { judgePayoutSlot } from './judge-payout-slot.ts';
import { pausedChains } from './payout-pause.ts';

type SendDeps = Pick<Deps, 'db' | 'clock' | 'logger' | 'keys' | 'config'>;

/**
 * Sends a chain's payouts from its hot wallet, one at a time (this job is the only writer of the
 * wallet's nonces). Every payout owns one spend slot (EVM nonce, TRON reference block and
 * expiration, Sui input object versions), and every transaction of a payout uses it, so at most one
 * of them can ever land:
 * 1. transactions signed but maybe never sent go out again as the same bytes, before anything new;
 * 2. unless payouts are paused on the chain: EVM transactions waiting longer than
 *    `payouts.repriceAfterSeconds` while the network's fee rose past theirs are replaced at the same
 *    nonce with a higher fee, never above `payouts.maxFeeBump` times the first one's;
 * 3. payouts that need a transaction are signed in a new slot: INIT ones (not awaiting approval),
 *    and PENDING ones whose every transaction was proven unable to land (past their expiry they fail
 *    instead, unless the operator retried them). Held payouts are skipped.
 * The signed bytes are stored together with the order's move to PENDING, and only then broadcast.
 * A signature made after `signal` was aborted (the worker is stopping, or lost its lease to another
 * worker while it signed) is dropped unstored and unsent: the next holder signs that payout itself.
 * A payout the chain would refuse for good (the token reverts it) fails with the reason.
 */
export async function sendPayouts(
  deps: SendDeps,
  adapter: ChainAdapter,
  signal: AbortSignal,
): Promise<{ sent: number; failed: number; repriced: number; paused?: true }> {
  const chain = adapter.chain;
  const live = await deps.db.liveAttempts(chain);
  for (const attempt of live.filter((a) => a.status === 'signed')) {
    if (signal.aborted) break;
    await broadcastStored(deps, adapter, attempt, live);
  }
  if ((await pausedChains(deps)).has(chain)) return { sent: 0, failed: 0, repriced: 0, paused: true };
  const hot = requireKeys(deps as Deps).hotWallet(chain);
  const repriced = adapter.reprice ? await repriceStuck(deps, adapter, hot.privateKey, live, signal) : 0;
  let sent = 0;
  let failed = 0;
  for (const order of await deps.db.payoutsToSend(chain, 20)) {
    if (signal.aborted) break;
    const now = deps.clock.now();
    if (order.expiresAt <= now && !order.retriedByOperator) {
      if (order.status === 'PENDING') {
        await failPayout(deps, order, 'The payout could not be sent before it expired.');
        failed++;
      }
      continue; // INIT past expiry: the expiry job makes it EXPIRED
    }
    let nonce: number | null = null;
    if (adapter.nextNonce)
      nonce = Math.max(
        await adapter.nextNonce(hot.address),
        (await deps.db.highestNonce(chain, hot.address)) + 1,
      );
    let signed: SignedPayout;
    try {
      signed = await adapter.signPayout({
        privateKey: hot.privateKey,
        from: hot.address,
        to: order.receiveAddress as string,
        token: { symbol: order.symbol, contract: order.tokenContract, decimals: order.decimals },
        amountBase: order.amountBase,
        nonce,
      });
    } catch (error) {
      if (isChainError(error, 'payout_rejected')) {
        await failPayout(deps, order, error.message);
        failed++;
        continue;
      }
      throw error;
    }
    if (signal.aborted) break; // never store a signature made after the lease was lost
    const attempt = await commit(deps, order, hot.address, signed, null);
    await broadcastStored(deps, adapter, attempt, [attempt]);
    sent++;
  }
  return { sent, failed, repriced };
}

/** Stores a signed transaction with the order's move to PENDING (or its new txid); returns the attempt. */
async function commit(
  deps: SendDeps,
  order: Order,
  from: string,
  signed: SignedPayout,
  replaces: PayoutAttempt | null,
): Promise<PayoutAttempt> {
  const now = deps.clock.now();
  const attempt: NewAttempt = {
    id: newId('pat'),
    orderRef: order.id,
    chain: order.chain,
    fromAddress: from,
    nonce: signed.nonce,
    txHash: signed.txHash,
    rawTx: signed.raw,
    status: 'signed',
    validUntil: signed.validUntil,
    slot: signed.slot,
    replacesAttempt: replaces?.id ?? null,
    maxFeePerGas: signed.maxFeePerGas?.toString() ?? null,
    maxPriorityFeePerGas: signed.maxPriorityFeePerGas?.toString() ?? null,
  };
  const transaction: OrderTransaction = {
    chain: order.chain,
    symbol: order.symbol,
    txid: signed.txHash,
    from,
    to: order.receiveAddress as string,
    amountBase: order.amountBase,
    blockNum: 0,
    confirmedNum: 0,
    status: 'PENDING',
    timestamp: Math.floor(now / 1000),
  };
  await deps.db.commitSignedPayout({
    attempt,
    transition: {
      order,
      patch: {
        status: order.status === 'INIT' ? transition('PAYOUT', 'INIT', 'broadcast') : order.status,
        transaction,
      },
    },
    now,
  });
  deps.logger.info(
    {
      chain: order.chain,
      job: 'payouts',
      orderId: order.orderId,
      txid: signed.txHash,
      slot: signed.slot,
      ...(replaces ? { replaces: replaces.txHash } : {}),
    },
    replaces ? 'payout re-priced in its slot' : 'payout signed',
  );
  return { ...attempt, blockNum: null, error: null, createdAt: now, updatedAt: now };
}

/**
 * Broadcasts stored bytes and records the outcome. A refusal is checked against the chain: a
 * transaction the chain knows is followed; one refused for good has its slot judged (a new slot
 * only when proven dead, a hold when the slot was used by something Kassa did not record).
 */
async function broadcastStored(
  deps: SendDeps,
  adapter: ChainAdapter,
  attempt: PayoutAttempt,
  live: PayoutAttempt[],
): Promise<void> {
  const log = deps.logger.child({ chain: adapter.chain, job: 'payouts', txid: attempt.txHash });
  const result = await adapter.broadcast({ raw: attempt.rawTx, txHash: attempt.txHash });
  const now = deps.clock.now();
  const sent = () =>
    deps.db.recordPayoutProgress({
      attempts: [{ id: attempt.id, status: 'broadcast' }],
      transitions: [],
      now,
    });
  if (result.ok) {
    await sent();
    log.info('payout broadcast');
    return;
  }
  if ((await adapter.lookup(attempt.txHash)).state !== 'unknown') {
    await sent();
    return;
  }
  if (result.permanent) {
    const order = await deps.db.findOrderById(attempt.orderRef);
    if (!order) return;
    const slot = live.filter((a) => a.orderRef === attempt.orderRef);
    const verdict = await judgePayoutSlot(deps, adapter, order, slot.length > 0 ? slot : [attempt]);
    if (verdict.state === 'landed') await sent();
    return;
  }
  log.warn({ error: result.error }, 'payout broadcast refused; will retry');
}

/**
 * Re-prices EVM payouts stuck in the mempool: a payout whose newest transaction has waited longer
 * than `repriceAfterSeconds` unmined gets a replacement at the same nonce paying today's fee (at
 * least the 12.5 % raise nodes require), capped at `maxFeeBump` times the first transaction's fee.
 */
async function repriceStuck(
  deps: SendDeps,
  adapter: ChainAdapter,
  privateKey: Buffer,
  live: PayoutAttempt[],
  signal: AbortSignal,
): Promise<number> {
  const reprice = adapter.reprice?.bind(adapter);
  if (!reprice) return 0;
  const { repriceAfterSeconds, maxFeeBump } = deps.config.payouts;
  const due = deps.clock.now() - repriceAfterSeconds * 1000;
  const slots = new Map<string, PayoutAttempt[]>();
  for (const a of live) slots.set(a.orderRef, [...(slots.get(a.orderRef) ?? []), a]);
  const held = await deps.db.holdsOf([...slots.keys()]);
  let repriced = 0;
  for (const [orderRef, attempts] of slots) {
    if (held.has(orderRef)) continue; // a held payout waits for the operator, not for a higher fee
    if (signal.aborted) break;
    const first = attempts[0];
    const newest = attempts.at(-1);
    if (!first || !newest || newest.createdAt > due || first.maxFeePerGas === null) continue;
    if (attempts.some((a) => a.status !== 'broadcast')) continue;
    const order = await deps.db.findOrderById(first.orderRef);
    if (order?.status !== 'PENDING') continue;
    let onChain = false;
    for (const a of attempts) if ((await adapter.lookup(a.txHash)).state === 'mined') onChain = true;
    if (onChain) continue; // the tracker moves it on
    const capWei = (BigInt(first.maxFeePerGas) * BigInt(Math.round(maxFeeBump * 1000))) / 1000n;
    const signed = await reprice({ privateKey, raw: newest.rawTx, capWei });
    if (!signed) {
      deps.logger.debug(
        { chain: adapter.chain, orderId: order.orderId, txid: newest.txHash },
        'payout waits unmined; no higher fee to offer (the network fee did not rise past it, or maxFeeBump is reached)',
      );
      continue;
    }
    if (signal.aborted) break; // as in sendPayouts: a replacement signed after the lease was lost stays unsent
    const attempt = await commit(deps, order, first.fromAddress, signed, newest);
    await broadcastStored(deps, adapter, attempt, [...attempts, attempt]);
    repriced++;
  }
  return repriced;
}

async function failPayout(deps: SendDeps, order: Order, reason: string): Promise<void> {
  const fresh = (await deps.db.findOrderById(order.id)) ?? order;
  await deps.db.recordPayoutProgress({
    attempts: [],
    transitions: [{ order: fresh, patch: { status: transition('PAYOUT', fresh.status, 'failed'), reason } }],
    now: deps.clock.now(),
  });
  deps.logger.warn({ chain: order.chain, orderId: order.orderId, reason }, 'payout failed');
}
