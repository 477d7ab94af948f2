import type { ActiveChain } from '../../config/active-chain.ts';
import type { Logger } from '../../lib/logger.ts';
import type { ChainAdapter } from '../port.ts';
import { balance } from './actions/balance.ts';
import { block } from './actions/block.ts';
import { broadcast } from './actions/broadcast.ts';
import { connect } from './actions/connect.ts';
import { payoutFeeEstimate } from './actions/fee-estimate.ts';
import { feePaid } from './actions/fee-paid.ts';
import { heads } from './actions/heads.ts';
import { judgeSlot } from './actions/judge-slot.ts';
import { lookup } from './actions/lookup.ts';
import { scan, scanStep } from './actions/scan.ts';
import { signDelegation } from './actions/sign-delegation.ts';
import { signPayout } from './actions/sign-payout.ts';
import { signSweep } from './actions/sign-sweep.ts';
import { sweepQuote } from './actions/sweep-quote.ts';
import { createTronContext, type TronContext, type TronOptions } from './context.ts';

/** The TRON adapter: the port bound to the chain's context. */
export interface TronAdapter extends ChainAdapter {
  readonly family: 'tron';
  readonly ctx: TronContext;
}

/**
 * The TRON adapter on the java-tron HTTP API (tronweb only for addresses, protobuf and signing):
 * deposits from TRC-20 Transfer logs in each block's TransactionInfo and from TRX TransferContract
 * transactions, finality = the solidified block by default, payouts built and signed locally with
 * a fee_limit from the energy estimate, every request through the fail-over endpoints. Each method
 * is an action of ./actions bound to the context; a new action is one file there and one line here.
 */
export function createTronAdapter(
  settings: ActiveChain,
  logger: Logger,
  options: TronOptions = {},
): TronAdapter {
  const ctx = createTronContext(settings, logger, options);
  return {
    family: 'tron',
    chain: ctx.chain,
    ctx,
    connect: () => connect(ctx),
    heads: () => heads(ctx),
    block: (height) => block(ctx, { height }),
    scanStep: () => scanStep(ctx),
    scan: (from, to, addresses, tokens) => scan(ctx, { from, to, addresses, tokens }),
    balance: (address, token) => balance(ctx, { address, token }),
    payoutFeeEstimate: (from, to, token, amountBase) =>
      payoutFeeEstimate(ctx, { from, to, token, amountBase }),
    signPayout: (input) => signPayout(ctx, input),
    broadcast: (signed) => broadcast(ctx, signed),
    lookup: (txHash) => lookup(ctx, { txHash }),
    judgeSlot: (input) => judgeSlot(ctx, input),
    sweepQuote: (input) => sweepQuote(ctx, input),
    signSweep: (input) => signSweep(ctx, input),
    signDelegation: (input) => signDelegation(ctx, input),
    feePaid: (txHash) => feePaid(ctx, { txHash }),
  };
}
