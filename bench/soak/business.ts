import { randomBytes } from 'node:crypto';
import { privateKeyToAccount } from 'viem/accounts';
import { payAsCustomer } from '../../src/devnet/pay-as-customer.ts';
import { SANDBOX_CUSTOMER } from '../../src/devnet/sandbox.ts';
import { tronAddressOf } from '../../src/devnet/tron/customer.ts';
import { sleep } from '../../src/lib/backoff.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import type { SoakChains, Token } from './chains.ts';
import { TTL_SECONDS } from './kassa-setup.ts';
import { log } from './log.ts';
import { post } from './merchant-api.ts';
import type { Chance } from './random.ts';

/**
 * The soak's business: collections on every token, each paid in full, in two parts, late (after it
 * expired) or not at all by the sandbox customer; payouts to fresh addresses; everything recorded
 * so that the checks know what must have happened.
 */

export type Plan = 'full' | 'parts' | 'late' | 'unpaid';

/** A collection the soak asked for, and what the customer paid for it. */
export interface Collection {
  m: MerchantCreated;
  token: Token;
  orderId: string;
  amountBase: bigint;
  plan: Plan;
  paid: { txid: string; amount: bigint; afterExpiry: boolean; at: number }[];
  address?: string;
  expiresAt?: number;
  error?: string;
  /** A payment in time failed on the customer's side: it may or may not have reached the chain. */
  uncertain?: boolean;
}

/** A payout the soak asked for. */
export interface Payout {
  m: MerchantCreated;
  token: Token;
  orderId: string;
  amountBase: bigint;
  to: string;
  askedAt?: number;
  refused?: string;
}

const format = (base: bigint, decimals: number) => {
  const s = base.toString().padStart(decimals + 1, '0');
  const frac = s.slice(-decimals).replace(/0+$/, '');
  return frac ? `${s.slice(0, -decimals)}.${frac}` : s.slice(0, -decimals);
};

/** V2 merchants name their customer (`uid`) on every order. */
const uidOf = (m: MerchantCreated, orderId: string) =>
  m.kind === 'V2' ? { uid: `customer-${orderId}` } : {};

/** An address nobody used yet: what it holds at the end is what its payout sent. */
function freshReceiver(chain: string): string {
  const key = randomBytes(32).toString('hex');
  if (chain === 'ETH') return privateKeyToAccount(`0x${key}`).address;
  if (chain === 'TRON') return tronAddressOf(key);
  return `0x${key}`;
}

/** The business of `merchants` with Kassa on `port`; `run(until)` drives it. */
export function soakBusiness(input: {
  chains: SoakChains;
  merchants: MerchantCreated[];
  port: number;
  chance: Chance;
}) {
  const { chains, merchants, port } = input;
  const { between, pick } = input.chance;
  const collections: Collection[] = [];
  const payouts: Payout[] = [];
  /** The collections and payouts still being asked for or paid. */
  const pending: Promise<void>[] = [];
  const customerQueues = new Map<string, Promise<unknown>>();
  const errors = { payments: 0 };

  /** The customer pays (one payment at a time per chain: one key, one nonce sequence). */
  function pay(token: Token, to: string, amount: bigint): Promise<string> {
    const chain = chains.chains[token.chain] as NonNullable<(typeof chains.chains)['ETH']>;
    const previous = customerQueues.get(token.chain) ?? Promise.resolve();
    const next = previous.then(() => payAsCustomer(chain, SANDBOX_CUSTOMER, token.contract, to, amount));
    customerQueues.set(
      token.chain,
      next.catch(() => undefined),
    );
    return next;
  }

  async function collection(c: Collection): Promise<void> {
    const r = await post<{ address: string; expiresAt?: number }>(port, '/v1/order/createCollection', c.m, {
      ...uidOf(c.m, c.orderId),
      chain: c.token.chain,
      symbol: c.token.symbol,
      amount: format(c.amountBase, c.token.decimals),
      orderId: c.orderId,
    });
    if (r.code !== 200) {
      c.error = `${r.code} ${r.msg}`;
      return;
    }
    c.address = r.data.address;
    c.expiresAt = Date.now() + TTL_SECONDS * 1000;
    const payNow = async (amount: bigint, afterExpiry: boolean) => {
      try {
        const txid = await pay(c.token, c.address as string, amount);
        c.paid.push({ txid, amount, afterExpiry, at: Date.now() });
      } catch (error) {
        errors.payments++;
        if (!afterExpiry) c.uncertain = true;
        log('payment failed', { orderId: c.orderId, error: (error as Error).message.slice(0, 200) });
      }
    };
    switch (c.plan) {
      case 'full':
        await sleep(between(0, 15_000));
        await payNow(c.amountBase, false);
        break;
      case 'parts': {
        const first = (c.amountBase * 4n) / 10n;
        await sleep(between(0, 10_000));
        await payNow(first, false);
        await sleep(between(2_000, 20_000));
        await payNow(c.amountBase - first, false);
        break;
      }
      case 'late':
        await sleep(TTL_SECONDS * 1000 + between(5_000, 20_000));
        await payNow(c.amountBase, true);
        break;
      case 'unpaid':
        break;
    }
  }

  async function payout(p: Payout): Promise<void> {
    p.askedAt = Date.now();
    const r = await post(port, '/v1/order/createPayout', p.m, {
      ...uidOf(p.m, p.orderId),
      chain: p.token.chain,
      symbol: p.token.symbol,
      amount: format(p.amountBase, p.token.decimals),
      orderId: p.orderId,
      receiveAddress: p.to,
    });
    if (r.code !== 200) p.refused = `${r.code} ${r.msg}`;
  }

  return {
    collections,
    payouts,
    pending,
    /** Payments that failed on the customer's side. */
    get paymentErrors() {
      return errors.payments;
    },
    /** Until `until`: a collection every 0.8 to 2.2 s, a payout every 2 to 6 s. */
    async run(until: number): Promise<void> {
      let n = 0;
      let nextPayout = Date.now();
      while (Date.now() < until) {
        const plan = pick<Plan>(['full', 'full', 'full', 'full', 'parts', 'parts', 'late', 'unpaid']);
        const token = pick(chains.tokens);
        const c: Collection = {
          m: pick(merchants),
          token,
          orderId: `soak-c-${++n}`,
          amountBase: BigInt(Math.round(between(1, 50) * 100)) * 10n ** BigInt(token.decimals - 2),
          plan,
          paid: [],
        };
        collections.push(c);
        pending.push(collection(c));
        if (Date.now() >= nextPayout) {
          const t = pick(chains.tokens.filter((x) => !(x.chain === 'ETH' && x.symbol === 'USDC')));
          const p: Payout = {
            m: pick(merchants),
            token: t,
            orderId: `soak-p-${++n}`,
            amountBase: BigInt(Math.round(between(0.5, 5) * 100)) * 10n ** BigInt(t.decimals - 2),
            to: freshReceiver(t.chain),
          };
          payouts.push(p);
          pending.push(payout(p));
          nextPayout = Date.now() + between(2_000, 6_000);
        }
        await sleep(between(800, 2_200));
      }
    },
  };
}

export type SoakBusiness = ReturnType<typeof soakBusiness>;
