import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/bootstrap.ts';
import { listBalances } from '../../src/db/repositories/ledger.ts';
import { sumLedgerEntries } from '../../src/db/repositories/ledger-entries.ts';
import { applyOrderTransitions, findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { sqliteOf } from '../../src/db/sqlite-store.ts';
import { AppError } from '../../src/domain/errors.ts';
import { feeToBase } from '../../src/domain/money.ts';
import type { Order } from '../../src/domain/order.ts';
import { silentLogger } from '../../src/lib/logger.ts';
import { checkoutLinkKey } from '../../src/services/checkout-link.ts';
import { createCollection } from '../../src/services/create-collection.ts';
import { createPayout } from '../../src/services/create-payout.ts';
import type { Deps } from '../../src/services/deps.ts';
import { adjustLedger } from '../../src/services/manage-ledger.ts';
import type { Merchant } from '../../src/services/merchant-directory.ts';
import { makeHarness, TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';
import { seededRandom } from '../helpers/seeded-random.ts';

/**
 * The ledger's invariant under random histories: collections paid (over, exactly) or lost, payouts
 * accepted or refused, sent, succeeded, failed or expired, operator adjustments (some refused), a
 * transaction aborted half-way, and the process restarted on its database. After every step each
 * balance equals the sum of its entries, neither part is below zero, `frozen` is exactly what the
 * open payouts froze, and `available` matches an independent model of what should have happened.
 */

/** Seeded, so a failing history can be replayed from its seed. */
function random(seed: number) {
  const next = seededRandom(seed);
  return {
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
  };
}

const TOKENS = [
  { chain: 'TRON', symbol: 'USDT', decimals: 6, to: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
  { chain: 'BSC', symbol: 'USDT', decimals: 18, to: '0xdAC17F958D2ee523a2206206994597C13D831ec7' },
] as const;
const FEE = '0.50';

async function reopen(path: string): Promise<Deps> {
  return bootstrap({
    env: { KASSA_DB: path, KASSA_MNEMONIC: TEST_MNEMONIC, KASSA_MASTER_KEY: TEST_MASTER_KEY },
    overrides: { orders: { handlingFee: FEE } },
    migrations: 'apply',
    logger: silentLogger(),
  });
}

async function history(seed: number, steps: number) {
  const rnd = random(seed);
  const h = await makeHarness({ orders: { handlingFee: FEE } });
  const dbPath = join(h.dir, 'kassa.db');
  let rt: Deps = h.rt;
  const merchants: Merchant[] = [];
  for (let i = 0; i < 2; i++) {
    const created = await h.merchant('V3');
    merchants.push({
      id: created.merchantId,
      kind: 'V3',
      name: null,
      callbackUrl: null,
      token: created.token,
      webhookSecret: created.webhookSecret,
      checkoutKey: checkoutLinkKey(created.token),
    });
  }
  /** The model: what each balance's `available` must be. */
  const model = new Map<string, bigint>();
  const key = (merchantId: string, chain: string, symbol: string) => `${merchantId}/${chain}/${symbol}`;
  const bump = (k: string, v: bigint) => model.set(k, (model.get(k) ?? 0n) + v);
  const open: { merchant: Merchant; orderId: string; total: bigint; key: string }[] = [];
  const collections: { merchant: Merchant; orderId: string; token: (typeof TOKENS)[number] }[] = [];
  let n = 0;
  const log: string[] = [];

  const order = (m: Merchant, orderId: string) =>
    findOrderByMerchantOrderId(sqliteOf(rt.db), m.id, orderId) as Order;
  const move = (o: Order, patch: Parameters<typeof applyOrderTransitions>[1][number]['patch']) =>
    applyOrderTransitions(sqliteOf(rt.db), [{ order: o, patch }], rt.clock.now());

  async function check(step: string) {
    const sums = await sumLedgerEntries(sqliteOf(rt.db));
    const balances = await listBalances(sqliteOf(rt.db));
    const frozenByKey = new Map<string, bigint>();
    for (const p of open) frozenByKey.set(p.key, (frozenByKey.get(p.key) ?? 0n) + p.total);
    for (const b of balances) {
      const k = key(b.merchantId, b.chain, b.symbol);
      const where = `seed ${seed}, after ${step} (${log.slice(-3).join('; ')})`;
      expect(sums.get(k), where).toEqual({ available: b.available, frozen: b.frozen });
      expect(b.available >= 0n && b.frozen >= 0n, where).toBe(true);
      expect(b.frozen, where).toBe(frozenByKey.get(k) ?? 0n);
      expect(b.available, where).toBe(model.get(k) ?? 0n);
    }
    expect(sums.size).toBe(balances.length);
  }

  for (let step = 0; step < steps; step++) {
    const m = rnd.pick(merchants);
    const token = rnd.pick(TOKENS);
    const unit = 10n ** BigInt(token.decimals);
    const k = key(m.id, token.chain, token.symbol);
    const action = rnd.pick([
      'collect',
      'collect',
      'settle',
      'payout',
      'payout',
      'finish',
      'adjust',
      'abort',
      'restart',
    ]);
    log.push(action);
    switch (action) {
      case 'collect': {
        const orderId = `c-${++n}`;
        await createCollection(rt, m, {
          amount: String(rnd.int(1, 50)),
          symbol: token.symbol,
          chain: token.chain,
          orderId,
        });
        collections.push({ merchant: m, orderId, token });
        break;
      }
      case 'settle': {
        const c = collections.splice(rnd.int(0, Math.max(0, collections.length - 1)), 1)[0];
        if (!c) break;
        const o = order(c.merchant, c.orderId);
        const outcome = rnd.pick(['paid', 'overpaid', 'expired', 'failed'] as const);
        if (outcome === 'expired' || outcome === 'failed') {
          move(o, { status: outcome === 'expired' ? 'EXPIRED' : 'FAILED', reason: outcome });
          break;
        }
        const received = o.amountBase + (outcome === 'overpaid' ? BigInt(rnd.int(1, 9)) * unit : 0n);
        move(o, { status: 'PENDING_CONFIRMATION', receivedBase: received });
        move(order(c.merchant, c.orderId), {
          status: 'SUCCESS',
          receivedBase: received,
          actualAmountBase: received,
        });
        const credit = received - feeToBase(FEE, c.token.decimals);
        if (credit > 0n) bump(key(c.merchant.id, c.token.chain, c.token.symbol), credit);
        break;
      }
      case 'payout': {
        const orderId = `p-${++n}`;
        const amount = BigInt(rnd.int(1, 40));
        const total = amount * unit + feeToBase(FEE, token.decimals);
        try {
          await createPayout(rt, m, {
            amount: String(amount),
            symbol: token.symbol,
            chain: token.chain,
            orderId,
            receiveAddress: token.to,
          });
          open.push({ merchant: m, orderId, total, key: k });
          bump(k, -total);
        } catch (error) {
          expect(error instanceof AppError && error.code === 'insufficient_funds').toBe(true);
          expect(model.get(k) ?? 0n).toBeLessThan(total);
          expect(findOrderByMerchantOrderId(sqliteOf(rt.db), m.id, orderId)).toBeNull();
        }
        break;
      }
      case 'finish': {
        const p = open.splice(rnd.int(0, Math.max(0, open.length - 1)), 1)[0];
        if (!p) break;
        const o = order(p.merchant, p.orderId);
        const outcome = rnd.pick(['success', 'failed', 'expired', 'failed-after-send'] as const);
        if (outcome === 'expired') move(o, { status: 'EXPIRED', reason: 'expired' });
        else if (outcome === 'failed') move(o, { status: 'FAILED', reason: 'refused' });
        else {
          move(o, { status: 'PENDING' });
          move(
            order(p.merchant, p.orderId),
            outcome === 'success'
              ? { status: 'SUCCESS', actualAmountBase: o.amountBase }
              : { status: 'FAILED', reason: 'reverted' },
          );
        }
        if (outcome !== 'success') bump(p.key, p.total);
        break;
      }
      case 'adjust': {
        const amount = BigInt(rnd.int(-60, 60) || 1);
        const have = model.get(k) ?? 0n;
        try {
          await adjustLedger(rt, {
            merchantId: m.id,
            chain: token.chain,
            symbol: token.symbol,
            amount: amount > 0n ? `+${amount}` : String(amount),
            reason: `step ${step}`,
          });
          bump(k, amount * unit);
        } catch (error) {
          expect(error instanceof AppError && error.code === 'ledger_negative').toBe(true);
          expect(have + amount * unit).toBeLessThan(0n);
        }
        break;
      }
      case 'abort': {
        // a crash inside a transaction: a payout's SUCCESS written, then the next write of the same
        // transaction fails; nothing of it may remain
        const p = open[0];
        const c = collections[0];
        if (!p || !c) break;
        const o = order(p.merchant, p.orderId);
        const stale = { ...order(c.merchant, c.orderId), status: 'PENDING_CONFIRMATION' as const };
        expect(() =>
          applyOrderTransitions(
            sqliteOf(rt.db),
            [
              { order: o, patch: { status: 'FAILED', reason: 'x' } },
              { order: stale, patch: { status: 'SUCCESS', actualAmountBase: 1n } },
            ],
            rt.clock.now(),
          ),
        ).toThrow(/changed while it was being updated/);
        expect(order(p.merchant, p.orderId).status).toBe(o.status);
        break;
      }
      case 'restart': {
        await rt.close();
        rt = await reopen(dbPath);
        break;
      }
    }
    await check(`step ${step} (${action})`);
  }
  await rt.close();
  await h.close();
  return log;
}

describe('the ledger under random histories', () => {
  for (const seed of [1, 7, 42, 2024, 99991]) {
    it(`keeps every balance equal to its entries, never negative, frozen = open payouts (seed ${seed})`, async () => {
      const log = await history(seed, 160);
      // the history did exercise every kind of step
      for (const action of ['collect', 'settle', 'payout', 'finish', 'adjust', 'abort', 'restart'])
        expect(log).toContain(action);
    });
  }
});
