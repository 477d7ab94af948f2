import type { ActiveChain } from '../../config/active-chain.ts';
import type { Logger } from '../../lib/logger.ts';
import type { ChainAdapter } from '../port.ts';
import { block } from './actions/block.ts';
import { broadcast } from './actions/broadcast.ts';
import { balance } from './actions/coins.ts';
import { connect } from './actions/connect.ts';
import { payoutFeeEstimate } from './actions/fee-estimate.ts';
import { feePaid } from './actions/fee-paid.ts';
import { heads } from './actions/heads.ts';
import { judgeSlot } from './actions/judge-slot.ts';
import { lookup } from './actions/lookup.ts';
import { SCAN_STEP, scan } from './actions/scan.ts';
import { signPayout } from './actions/sign-payout.ts';
import { signSweep } from './actions/sign-sweep.ts';
import { sweepQuote } from './actions/sweep-quote.ts';
import { createSuiContext, type SuiContext, type SuiOptions } from './context.ts';

/** The SUI adapter: the port bound to the chain's context. */
export interface SuiAdapter extends ChainAdapter {
  readonly family: 'sui';
  readonly ctx: SuiContext;
}

/**
 * The SUI adapter on `SuiGrpcClient` (gRPC-Web, @mysten/sui 1.45): heights are checkpoint sequence
 * numbers, deposits come from the balance changes of each checkpoint's transactions (coin objects
 * and address balances alike), and payouts are fully specified transactions (coins read, budget
 * sized by a dry run) signed locally with the hot wallet's ed25519 key. Executing the same signed
 * bytes twice is idempotent on Sui, so a re-broadcast never pays twice; a new transaction replaces
 * one only when the old one provably can never execute (judgeSlot). Each method is an action of
 * ./actions bound to the context; a new action is one file there and one line here.
 */
export function createSuiAdapter(
  settings: ActiveChain,
  logger: Logger,
  options: SuiOptions = {},
): SuiAdapter {
  const ctx = createSuiContext(settings, logger, options);
  return {
    family: 'sui',
    chain: ctx.chain,
    ctx,
    connect: () => connect(ctx),
    heads: () => heads(ctx),
    block: (height) => block(ctx, { height }),
    scanStep: () => SCAN_STEP,
    scan: (from, to, addresses, tokens) => scan(ctx, { from, to, addresses, tokens }),
    balance: (address, token) => balance(ctx, { address, token }),
    payoutFeeEstimate: () => payoutFeeEstimate(ctx),
    signPayout: (input) => signPayout(ctx, input),
    broadcast: (signed) => broadcast(ctx, signed),
    lookup: (txHash) => lookup(ctx, { txHash }),
    judgeSlot: (input) => judgeSlot(ctx, input),
    sweepQuote: (input) => sweepQuote(ctx, input),
    signSweep: (input) => signSweep(ctx, input),
    feePaid: (txHash) => feePaid(ctx, { txHash }),
  };
}
