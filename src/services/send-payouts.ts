import { type ChainAdapter, PayoutRejectedError, type SignedPayout } from '../chains/port.ts';
import { findOrderById } from '../db/repositories/orders.ts';
import {
  commitSignedPayout,
  highestNonce,
  liveAttempts,
  type PayoutAttempt,
  payoutsToSend,
  recordPayoutProgress,
} from '../db/repositories/payouts.ts';
import type { Order } from '../domain/order.ts';
import { transition } from '../domain/order-state.ts';
import { newId } from '../lib/ids.ts';
import { type Deps, requireKeys } from './deps.ts';

type SendDeps = Pick<Deps, 'db' | 'clock' | 'logger' | 'keys'>;

/**
 * Sends a chain's payouts from its hot wallet, one at a time (this job is the only writer of the
 * wallet's nonces). First re-broadcasts transactions that were signed but maybe never sent (a crash
 * between sign and broadcast sends the same bytes again, never new ones). Then, for each payout that
 * needs a transaction: picks the nonce (the chain's pending count, never below one this database
 * already used), signs, stores the signed bytes together with the order's move to PENDING, and only
 * then broadcasts. A payout the chain would refuse for good (the token reverts it) fails with the
 * reason; a payout whose every transaction is proven unable to land gets a new one, or fails once
 * its expiry passed.
 */
export async function sendPayouts(
  deps: SendDeps,
  adapter: ChainAdapter,
  signal: AbortSignal,
): Promise<{ sent: number; failed: number }> {
  const chain = adapter.chain;
  const log = deps.logger.child({ chain, job: 'payouts' });
  for (const attempt of liveAttempts(deps.db, chain).filter((a) => a.status === 'signed')) {
    if (signal.aborted) break;
    await broadcastAttempt(deps, adapter, attempt);
  }
  const hot = requireKeys(deps as Deps).hotWallet(chain);
  let sent = 0;
  let failed = 0;
  for (const order of payoutsToSend(deps.db, chain, 20)) {
    if (signal.aborted) break;
    const now = deps.clock.now();
    if (order.expiresAt <= now) {
      if (order.status === 'PENDING') {
        failPayout(deps, order, 'The payout could not be sent before it expired.');
        failed++;
      }
      continue; // INIT past expiry: the expiry job makes it EXPIRED
    }
    let nonce: number | null = null;
    if (adapter.nextNonce)
      nonce = Math.max(await adapter.nextNonce(hot.address), highestNonce(deps.db, chain, hot.address) + 1);
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
      if (error instanceof PayoutRejectedError) {
        failPayout(deps, order, error.message);
        failed++;
        continue;
      }
      throw error;
    }
    const attempt = {
      id: newId('pat'),
      orderRef: order.id,
      chain,
      fromAddress: hot.address,
      nonce: signed.nonce,
      txHash: signed.txHash,
      rawTx: signed.raw,
      status: 'signed' as const,
      validUntil: signed.validUntil,
    };
    commitSignedPayout(deps.db, {
      attempt,
      transition: {
        order,
        patch: {
          status: order.status === 'INIT' ? transition('PAYOUT', 'INIT', 'broadcast') : order.status,
          transaction: {
            chain,
            symbol: order.symbol,
            txid: signed.txHash,
            from: hot.address,
            to: order.receiveAddress as string,
            amountBase: order.amountBase,
            blockNum: 0,
            confirmedNum: 0,
            status: 'PENDING',
            timestamp: Math.floor(now / 1000),
          },
        },
      },
      now,
    });
    log.info({ orderId: order.orderId, txid: signed.txHash, nonce: signed.nonce }, 'payout signed');
    await broadcastAttempt(deps, adapter, {
      ...attempt,
      blockNum: null,
      error: null,
      createdAt: now,
      updatedAt: now,
    });
    sent++;
  }
  return { sent, failed };
}

/** Broadcasts stored bytes and records the outcome; a refusal is checked against the chain before anything is given up. */
async function broadcastAttempt(
  deps: SendDeps,
  adapter: ChainAdapter,
  attempt: PayoutAttempt,
): Promise<void> {
  const log = deps.logger.child({ chain: adapter.chain, job: 'payouts', txid: attempt.txHash });
  const result = await adapter.broadcast({ raw: attempt.rawTx, txHash: attempt.txHash });
  const now = deps.clock.now();
  if (result.ok) {
    recordPayoutProgress(deps.db, {
      attempts: [{ id: attempt.id, status: 'broadcast' }],
      transitions: [],
      now,
    });
    log.info('payout broadcast');
    return;
  }
  const seen = await adapter.lookup(attempt.txHash);
  if (seen.state !== 'unknown') {
    recordPayoutProgress(deps.db, {
      attempts: [{ id: attempt.id, status: 'broadcast' }],
      transitions: [],
      now,
    });
    return;
  }
  if (result.permanent && (await adapter.canNeverLand({ ...attempt, from: attempt.fromAddress }))) {
    recordPayoutProgress(deps.db, {
      attempts: [{ id: attempt.id, status: 'dropped', error: result.error }],
      transitions: [],
      now,
    });
    log.warn({ error: result.error }, 'payout transaction can never land; a new one will be signed');
    return;
  }
  log.warn({ error: result.error, permanent: result.permanent }, 'payout broadcast refused; will retry');
}

function failPayout(deps: SendDeps, order: Order, reason: string): void {
  const fresh = findOrderById(deps.db, order.id) ?? order;
  recordPayoutProgress(deps.db, {
    attempts: [],
    transitions: [{ order: fresh, patch: { status: transition('PAYOUT', fresh.status, 'failed'), reason } }],
    now: deps.clock.now(),
  });
  deps.logger.warn({ chain: order.chain, orderId: order.orderId, reason }, 'payout failed');
}
