import type { ChainAdapter } from '../../src/chains/port.ts';
import { createAdapters } from '../../src/chains/registry.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { chainCursors } from '../../src/db/schema/chain-cursors.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import type { Order } from '../../src/domain/order.ts';
import { silentLogger } from '../../src/lib/logger.ts';
import { expireOrders } from '../../src/services/expire-orders.ts';
import { hookedAdapter } from './hooked-adapter.ts';
import { onePoll } from './poll.ts';
import type { FuzzChain } from './reorg-fuzz-chain.ts';
import { type Sent, verifyReorgInvariant } from './reorg-fuzz-invariant.ts';
import { planOrders } from './reorg-fuzz-orders.ts';
import { fuzzReorgs } from './reorg-fuzz-reorgs.ts';
import { seededRandom } from './seeded-random.ts';

/*
 * A randomized test of the scanner against reorganisations (issue 19), shared by the anvil and the
 * fake TRON node runs and by bench/reorg-fuzz.ts. One run: a fresh chain and database, orders paid
 * in pieces at random heights, and a random schedule of polls, blocks, reorganisations of random
 * depth between polls and in the middle of a pass (dropped transactions, or the same ones mined
 * again in other blocks), worker kills at a random RPC call (the pass stops there, as after a
 * SIGKILL; the next pass runs on a fresh adapter as a restarted worker would), RPC outages, and in
 * some runs an RPC down from the first start. A reorganisation never reaches below what Kassa has
 * already taken as final (no gateway can take back a final credit); everything above is fair game,
 * including reorganisations deeper than the confirmation count while Kassa was not polling.
 *
 * After the chain settles, the invariant of reorg-fuzz-invariant.ts is checked: every transfer on
 * the final canonical chain recorded once and credited right, and each order's state, amounts and
 * webhook events following from those transfers alone.
 */

export interface FuzzOptions {
  seed: number;
  /** The RPC refuses from the very first start for the first part of the run. */
  outageFromStart: boolean;
  orders?: number;
  actions?: number;
}

export interface FuzzStats {
  seed: number;
  outageFromStart: boolean;
  actions: number;
  passes: number;
  kills: number;
  failedPasses: number;
  reorgs: number;
  deepReorgs: number;
  reorgsInPass: number;
  kassaReorgs: number;
  reverted: number;
  transfers: number;
  dropped: number;
  ms: number;
}

class Killed extends Error {
  constructor() {
    super('worker killed by the fuzz');
  }
}

/** One randomized run; throws with the seed and the action log when the invariant breaks. */
export async function runReorgFuzz(make: () => Promise<FuzzChain>, options: FuzzOptions): Promise<FuzzStats> {
  const started = Date.now();
  const random = seededRandom(options.seed); // the same seed gives the same run
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const chance = (p: number) => random() < p;
  const log: string[] = [];
  const c = await make();
  const stats: FuzzStats = {
    seed: options.seed,
    outageFromStart: options.outageFromStart,
    actions: options.actions ?? 50,
    passes: 0,
    kills: 0,
    failedPasses: 0,
    reorgs: 0,
    deepReorgs: 0,
    reorgsInPass: 0,
    kassaReorgs: 0,
    reverted: 0,
    transfers: 0,
    dropped: 0,
    ms: 0,
  };
  try {
    const { h } = c;
    const db = h.db;
    const merchant = await h.merchant('V3');
    h.clock.set(await c.headTime());

    const { plans, queue } = await planOrders(
      c,
      merchant,
      { seed: options.seed, orders: options.orders ?? 8 },
      int,
      chance,
    );

    const sent: Sent[] = [];
    // the devnet's own set-up (deployments, funding) is never reorganised away
    const setUp = await c.head();
    let adapter: ChainAdapter | null = null;
    let down = options.outageFromStart;
    /** Polls left in an outage that began mid-run. */
    let outage = 0;
    const outageUntil = options.outageFromStart ? Math.floor(stats.actions / 2) : -1;
    let everScanned = false;

    const { allowedDepth, reorg } = fuzzReorgs({
      c,
      db,
      setUp,
      random,
      chance,
      stats,
      log,
      sent,
      queue,
      plans,
    });

    /** One poll of the worker: a scan pass, then the expiry job. */
    const pass = async (mode: { killAt?: number; reorgAt?: number; mustSucceed?: boolean } = {}) => {
      stats.passes++;
      if (down || outage > 0) {
        outage = Math.max(0, outage - 1);
        stats.failedPasses++;
        log.push('pass: RPC down');
        return;
      }
      if (!adapter) {
        adapter = (await createAdapters(h.rt.config, silentLogger(), [c.chain])).get(c.chain) ?? null;
        if (!adapter) throw new Error(`no adapter for ${c.chain}`);
        await adapter.connect();
      }
      let calls = 0;
      let passFinal = -1;
      // a reorganisation started by one call while the adapter's other calls run on (the pass may
      // even fail meanwhile): the next action waits for it
      let inPass: Promise<void> = Promise.resolve();
      const hooked = hookedAdapter(adapter, async (method) => {
        calls++;
        if (method === 'heads') passFinal = (await c.head()) - c.confirmations + 1;
        if (calls === mode.reorgAt) {
          const at = calls;
          inPass = (async () => {
            const limit = await allowedDepth(passFinal);
            if (limit >= 1) {
              stats.reorgsInPass++;
              await reorg(int(1, limit), `in pass at call ${at} (${method})`);
            }
          })();
          await inPass;
        }
        if (calls === mode.killAt) throw new Killed();
      });
      try {
        const summary = await onePoll(h.rt, hooked); // the worker's tick
        everScanned = true;
        log.push(
          `pass: head ${summary.head} scanned to ${summary.scannedTo}${summary.reorg ? ' (reorg)' : ''}`,
        );
      } catch (error) {
        if (error instanceof Killed) {
          stats.kills++;
          log.push(`pass: killed at call ${mode.killAt}`);
          adapter = null; // the restarted worker builds its adapter afresh
        } else if (mode.mustSucceed) {
          throw error;
        } else {
          // what the worker does with a failing pass: log it, keep the checkpoint, retry next tick
          // (e.g. the TRON adapter refusing blocks that a reorganisation just took away)
          stats.failedPasses++;
          log.push(`pass: failed (${(error as Error).message})`);
        }
      } finally {
        await inPass;
      }
      h.clock.set(await c.headTime());
      await expireOrders(h.rt);
    };

    const payNext = async () => {
      const n = Math.min(queue.length, int(1, 3));
      for (let i = 0; i < n; i++) {
        const next = queue.shift() as (typeof queue)[number];
        const txid = await c.pay(next.symbol, next.plan.address, next.amountBase);
        log.push(`  sent ${txid}: ${next.amountBase} ${next.symbol} to ${next.plan.orderId}`);
        sent.push({
          txid,
          to: next.plan.address,
          symbol: next.symbol,
          amountBase: next.amountBase,
          orderId: next.plan.orderId,
        });
      }
      await c.mine(1);
      log.push(`pay ${n}, mined at ${await c.head()}`);
    };

    for (let step = 0; step < stats.actions; step++) {
      if (step === outageUntil) {
        down = false;
        log.push('RPC back');
      }
      const roll = random();
      if (roll < 0.22 && queue.length > 0) {
        await payNext();
      } else if (roll < 0.34) {
        const n = int(1, 4);
        await c.mine(n);
        log.push(`mine ${n}`);
      } else if (roll < 0.54) {
        await pass();
      } else if (roll < 0.64) {
        await pass({ killAt: int(1, 8) });
      } else if (roll < 0.72) {
        await pass({ reorgAt: int(1, 6) });
      } else if (roll < 0.86) {
        const limit = await allowedDepth();
        if (limit >= 1) {
          // deeper reorganisations are likelier while Kassa has not polled for a while
          await reorg(int(1, limit), 'between polls');
        }
      } else if (roll < 0.93) {
        // the expiry job with the clock long past every order's time to live, the chain's time not:
        // nothing may expire before the scanner has read past an order's expiry
        const now = h.clock.now();
        h.clock.set(now + 10 * 24 * 3600_000);
        const { expired } = await expireOrders(h.rt);
        h.clock.set(now);
        if (expired !== 0)
          throw new Error(`${expired} orders expired before the scanner read past their expiry`);
        log.push(`expiry job: nothing expired${everScanned ? '' : ' (chain never scanned)'}`);
      } else if (!down) {
        outage = int(1, 4);
        log.push(`RPC down for ${outage} polls`);
      }
    }

    // The chain settles: the RPC is back, no more reorganisations; payments still queued are made.
    down = false;
    outage = 0;
    while (queue.length > 0) await payNext();
    await c.mine(c.confirmations + 1);
    await pass({ mustSucceed: true });
    await pass({ mustSucceed: true });
    // Then its time passes every order's expiry, and the scanner reads that far.
    const latest = Math.max(...plans.map((p) => findOrder(p.orderId).expiresAt));
    await c.mineUntil(latest + 2000);
    await c.mine(c.confirmations + 1);
    await pass({ mustSucceed: true });
    await pass({ mustSucceed: true });

    stats.transfers = sent.length;
    stats.kassaReorgs = db
      .select({ n: chainCursors.reorgCount })
      .from(chainCursors)
      .all()
      .reduce((sum, r) => sum + r.n, 0);
    await verifyReorgInvariant({
      c,
      db,
      sent,
      plans,
      findOrder,
      run: { seed: options.seed, outageFromStart: options.outageFromStart, log },
    });
    stats.reverted = db
      .select()
      .from(webhookEvents)
      .all()
      .filter((e) => e.notifyType === 'ORDER_REVERTED').length;
    stats.ms = Date.now() - started;
    return stats;

    function findOrder(orderId: string): Order {
      const o = findOrderByMerchantOrderId(db, merchant.merchantId, orderId);
      if (!o) throw new Error(`order ${orderId} not found`);
      return o;
    }
  } finally {
    await c.close();
  }
}
