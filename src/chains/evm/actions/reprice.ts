import { type Hex, parseTransaction } from 'viem';
import { ChainError } from '../../errors.ts';
import type { SignedPayout } from '../../port.ts';
import type { EvmContext } from '../context.ts';
import { feesPerGas } from './fees.ts';
import { signCall } from './sign.ts';

/** The smallest raise a node accepts for a replacement is 10 % (geth's pricebump); 12.5 % clears every client. */
const REPLACEMENT_BUMP_PERMILLE = 1125n;

const bump = (v: bigint) => (v * REPLACEMENT_BUMP_PERMILLE + 999n) / 1000n;
const larger = (a: bigint, b: bigint) => (a < b ? b : a);
const smaller = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * A replacement of a stuck transaction in its slot: same nonce, gas, recipient and call, paying
 * today's fee but at least 12.5 % more than before (what nodes require to replace), and never
 * more than `capWei` per gas. Null when today's fee is not above what it pays, or the cap leaves
 * no room for the minimum raise. Throws ChainError `bad_request` for bytes that are no payout.
 */
export async function reprice(
  ctx: EvmContext,
  input: { privateKey: Buffer; raw: string; capWei: bigint },
): Promise<SignedPayout | null> {
  const old = parseTransaction(input.raw as Hex);
  if (old.nonce === undefined || old.gas === undefined || !old.to)
    throw new ChainError('bad_request', 'not a payout transaction');
  const now = await feesPerGas(ctx);
  const tx = { nonce: old.nonce, gas: old.gas, to: old.to, value: old.value ?? 0n, data: old.data };
  const sign = (fees: Parameters<typeof signCall>[1]['fees']) =>
    signCall(ctx, { privateKey: input.privateKey, tx, fees });
  if (old.type === 'eip1559' && 'maxFeePerGas' in now) {
    const oldMax = old.maxFeePerGas ?? 0n;
    const oldTip = old.maxPriorityFeePerGas ?? 0n;
    if (now.maxFeePerGas <= oldMax) return null;
    const max = smaller(larger(now.maxFeePerGas, bump(oldMax)), input.capWei);
    const tip = larger(now.maxPriorityFeePerGas, bump(oldTip));
    if (max < bump(oldMax) || tip > max) return null;
    return sign({ maxFeePerGas: max, maxPriorityFeePerGas: tip });
  }
  const oldPrice = old.gasPrice ?? 0n;
  const price = 'gasPrice' in now ? now.gasPrice : now.maxFeePerGas;
  if (price <= oldPrice) return null;
  const wanted = larger(price, bump(oldPrice));
  const capped = smaller(wanted, input.capWei);
  if (capped < bump(oldPrice)) return null;
  return sign({ gasPrice: capped });
}
