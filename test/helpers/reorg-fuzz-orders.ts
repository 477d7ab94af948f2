import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { body } from './harness.ts';
import type { FuzzChain } from './reorg-fuzz-chain.ts';
import type { Plan } from './reorg-fuzz-invariant.ts';

/** A payment the fuzz's customer will make to an order, in the order's token or the other one. */
export interface Payment {
  symbol: string;
  amountBase: bigint;
  plan: Plan;
}

/**
 * Opens the run's orders through the signed API and plans their payments, in a random order.
 * Orders and the payments planned for them: each order is paid in 0 to 3 pieces whose total is
 * its amount, sometimes a little more; every piece is larger than the surplus, so no order is
 * covered before its last piece and no piece ever arrives after the order settled.
 */
export async function planOrders(
  c: FuzzChain,
  merchant: MerchantCreated,
  run: { seed: number; orders: number },
  int: (lo: number, hi: number) => number,
  chance: (p: number) => boolean,
): Promise<{ plans: Plan[]; queue: Payment[] }> {
  const plans: Plan[] = [];
  const queue: Payment[] = [];
  for (let i = 0; i < run.orders; i++) {
    // most orders in the first token, some (always the second order) in the other: on TRON that
    // is the native coin, whose transfers Kassa reads only while an order asks for it, so a
    // payment in the wrong token is then recorded either way
    const second = i === 1 || chance(0.3);
    const [token, other] = second ? [c.tokens[1], c.tokens[0]] : [c.tokens[0], c.tokens[1]];
    const whole = int(2, 30);
    const orderId = `fz-${run.seed}-${i}`;
    const r = await body<{ address: string }>(
      await c.h.post('/v1/order/createCollection', merchant, {
        amount: String(whole),
        symbol: token.symbol,
        chain: c.chain,
        orderId,
      }),
    );
    if (!r.data?.address) throw new Error(`createCollection failed: ${JSON.stringify(r)}`);
    const amountBase = BigInt(whole) * 10n ** BigInt(token.decimals);
    const plan = {
      orderId,
      symbol: token.symbol,
      decimals: token.decimals,
      amountBase,
      address: r.data.address,
    };
    plans.push(plan);
    const pieces = chance(0.15) ? 0 : Math.min(whole, int(1, 3));
    if (pieces === 0) continue;
    const unit = 10n ** BigInt(token.decimals);
    const parts: bigint[] = [];
    let left = amountBase;
    for (let p = pieces; p > 1; p--) {
      // whole units, at least one, leaving at least one for each piece still to come
      const most = left / unit - BigInt(p - 1);
      const share = (left * BigInt(int(30, 70))) / 100n / unit;
      const part = (share < 1n ? 1n : share > most ? most : share) * unit;
      parts.push(part);
      left -= part;
    }
    parts.push(left);
    let smallest = left;
    for (const part of parts) if (part < smallest) smallest = part;
    if (chance(0.3) && smallest > 1n) parts[parts.length - 1] = (parts.at(-1) as bigint) + smallest / 2n;
    for (const part of parts) queue.push({ symbol: token.symbol, amountBase: part, plan });
    if (chance(0.25)) {
      queue.push({ symbol: other.symbol, amountBase: 10n ** BigInt(other.decimals), plan });
    }
  }
  for (let i = queue.length - 1; i > 0; i--) {
    const j = int(0, i);
    [queue[i], queue[j]] = [queue[j] as (typeof queue)[number], queue[i] as (typeof queue)[number]];
  }
  return { plans, queue };
}
