import type { ActiveChain } from '../../config/active-chain.ts';
import type { Logger } from '../../lib/logger.ts';
import type { ChainAdapter } from '../port.ts';
import type { EndpointStats } from '../rpc/endpoints.ts';
import { balance } from './actions/balance.ts';
import { balances } from './actions/balances.ts';
import { block } from './actions/block.ts';
import { broadcast } from './actions/broadcast.ts';
import { connect } from './actions/connect.ts';
import { feePaid } from './actions/fee-paid.ts';
import { payoutFeeEstimate } from './actions/fees.ts';
import { heads } from './actions/heads.ts';
import { judgeSlot } from './actions/judge-slot.ts';
import { lookup } from './actions/lookup.ts';
import { nextNonce } from './actions/next-nonce.ts';
import { reprice } from './actions/reprice.ts';
import { scan } from './actions/scan.ts';
import { signPayout } from './actions/sign-payout.ts';
import { signSweep } from './actions/sign-sweep.ts';
import { sweepQuote } from './actions/sweep-quote.ts';
import { createEvmContext, type EvmContext, type EvmOptions } from './context.ts';

/** The EVM adapter: the port bound to one chain's context. */
export interface EvmAdapter extends ChainAdapter {
  readonly family: 'evm';
  readonly ctx: EvmContext;
  rpcStatistics(): EndpointStats[];
}

/**
 * The EVM adapter (ETH, BSC, POLYGON, AVAX_C_CHAIN) on viem: deposits from ERC-20 Transfer logs
 * (adaptive eth_getLogs ranges) and native transfers from blocks, payouts signed locally
 * (EIP-1559 where configured, legacy gas price otherwise), RPC fail-over under it. Each method is
 * an action of ./actions bound to the chain's context; a new action is one file there and one line here.
 */
export function createEvmAdapter(
  settings: ActiveChain,
  logger: Logger,
  options: EvmOptions = {},
): EvmAdapter {
  const ctx = createEvmContext(settings, logger, options);
  return {
    family: 'evm',
    chain: ctx.chain,
    ctx,
    connect: () => connect(ctx),
    heads: () => heads(ctx),
    block: (height) => block(ctx, { height }),
    scanStep: () => ctx.logRange.current(),
    scan: (from, to, addresses, tokens) => scan(ctx, { from, to, addresses, tokens }),
    balance: (address, token) => balance(ctx, { address, token }),
    balances: (reads, atHeight) => balances(ctx, { reads, atHeight }),
    payoutFeeEstimate: (_from, _to, token) => payoutFeeEstimate(ctx, { native: token.contract === null }),
    signPayout: (input) => signPayout(ctx, input),
    reprice: (input) => reprice(ctx, input),
    broadcast: (signed) => broadcast(ctx, signed),
    lookup: (txHash) => lookup(ctx, { txHash }),
    judgeSlot: (input) => judgeSlot(ctx, input),
    nextNonce: (address) => nextNonce(ctx, { address }),
    sweepQuote: (input) => sweepQuote(ctx, input),
    signSweep: (input) => signSweep(ctx, input),
    feePaid: (txHash) => feePaid(ctx, { txHash }),
    rpcStatistics: () => ctx.endpoints.statistics(),
  };
}
