import type { ChainAdapter } from '../../src/chains/port.ts';
import { createAdapters } from '../../src/chains/registry.ts';
import { getCursor, transfersOfChain } from '../../src/db/repositories/chain-scan.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { chainCursors } from '../../src/db/schema/chain-cursors.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import type { Chain } from '../../src/domain/chains.ts';
import { REORG_REVERT_REASON } from '../../src/domain/collection-progress.ts';
import { formatAmount } from '../../src/domain/money.ts';
import type { Order } from '../../src/domain/order.ts';
import { silentLogger } from '../../src/lib/logger.ts';
import { expireOrders } from '../../src/services/expire-orders.ts';
import { body, type Harness } from './harness.ts';
import { hookedAdapter } from './hooked-adapter.ts';
import { onePoll } from './poll.ts';

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
 * After the chain settles, the invariant: every transfer to an order address on the final canonical
 * chain is recorded exactly once, final, in its canonical block, credited to its order when it is in
 * the order's token and to nothing otherwise; nothing else is recorded or credited; each order's
 * state and amounts follow from those transfers alone; and its webhook events walk a valid path to
 * that state.
 */

/** A chain the fuzz can drive: a devnet, and a Kassa harness scanning it. */
export interface FuzzChain {
  readonly chain: Chain;
  /** Kassa's confirmation count on this chain. */
  readonly confirmations: number;
  /** Two configured tokens with their decimals: orders are in either, payments in the other are wrong-token. */
  readonly tokens: readonly [FuzzToken, FuzzToken];
  readonly h: Harness;
  head(): Promise<number>;
  /** Epoch ms of the head block. */
  headTime(): Promise<number>;
  /** The deepest reorganisation the chain itself allows now (TRON: blocks above the solidified one). */
  reorgLimit(): Promise<number>;
  /** The customer sends a transfer; it waits in the mempool until `mine`. Resolves with its txid. */
  pay(symbol: string, to: string, amountBase: bigint): Promise<string>;
  mine(blocks: number): Promise<void>;
  /**
   * Replaces the last `depth` blocks with new ones: the transactions in them for which `keep` is true
   * are mined again in random new blocks (as far as the chain can: an EVM account's later nonces
   * cannot land without its earlier ones), the others vanish for good.
   */
  reorg(depth: number, keep: (txid: string) => boolean, random: () => number): Promise<void>;
  /** Where a transaction is on the canonical chain now and whether it succeeded, or null. */
  locate(txid: string): Promise<{ blockNum: number; blockHash: string; success: boolean } | null>;
  /** Mines blocks until the head is stamped at or after `atMs`. */
  mineUntil(atMs: number): Promise<void>;
  close(): Promise<void>;
}

export interface FuzzToken {
  symbol: string;
  decimals: number;
}

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

interface Sent {
  txid: string;
  to: string;
  symbol: string;
  amountBase: bigint;
  /** The order's merchant orderId (every payment goes to an order address). */
  orderId: string;
}

interface Plan {
  orderId: string;
  symbol: string;
  decimals: number;
  amountBase: bigint;
  address: string;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Killed extends Error {
  constructor() {
    super('worker killed by the fuzz');
  }
}

/** One randomized run; throws with the seed and the action log when the invariant breaks. */
export async function runReorgFuzz(make: () => Promise<FuzzChain>, options: FuzzOptions): Promise<FuzzStats> {
  const started = Date.now();
  const random = seeded(options.seed);
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

    // Orders and the payments planned for them: each order is paid in 0 to 3 pieces whose total is
    // its amount, sometimes a little more; every piece is larger than the surplus, so no order is
    // covered before its last piece and no piece ever arrives after the order settled.
    const plans: Plan[] = [];
    const queue: { symbol: string; amountBase: bigint; plan: Plan }[] = [];
    for (let i = 0; i < (options.orders ?? 8); i++) {
      // most orders in the first token, some (always the second order) in the other: on TRON that
      // is the native coin, whose transfers Kassa reads only while an order asks for it, so a
      // payment in the wrong token is then recorded either way
      const second = i === 1 || chance(0.3);
      const [token, other] = second ? [c.tokens[1], c.tokens[0]] : [c.tokens[0], c.tokens[1]];
      const whole = int(2, 30);
      const orderId = `fz-${options.seed}-${i}`;
      const r = await body<{ address: string }>(
        await h.post('/v1/order/createCollection', merchant, {
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
    const planOf = new Map(plans.map((p) => [p.orderId, p]));

    const sent: Sent[] = [];
    // the devnet's own set-up (deployments, funding) is never reorganised away
    const setUp = await c.head();
    let adapter: ChainAdapter | null = null;
    let down = options.outageFromStart;
    /** Polls left in an outage that began mid-run. */
    let outage = 0;
    const outageUntil = options.outageFromStart ? Math.floor(stats.actions / 2) : -1;
    let everScanned = false;

    /** The highest block Kassa has taken as final: no reorganisation may reach it. */
    const kassaFinal = (passFinal = -1): number => {
      const cursor = getCursor(db, c.chain);
      const finals = transfersOfChain(db, c.chain)
        .filter((t) => t.status === 'final')
        .map((t) => t.blockNum);
      return Math.max(passFinal, cursor?.finalHeight ?? -1, ...finals);
    };
    const allowedDepth = async (passFinal = -1): Promise<number> => {
      const head = await c.head();
      const final = kassaFinal(passFinal);
      const kassaLimit = head - Math.max(final, setUp);
      return Math.min(kassaLimit, await c.reorgLimit(), 16);
    };
    const repaid = new Set<string>();
    const reorg = async (depth: number, where: string) => {
      const keepRate = random();
      await c.reorg(depth, () => random() < keepRate, random);
      stats.reorgs++;
      if (depth > c.confirmations) stats.deepReorgs++;
      log.push(`${where}: reorg depth ${depth} (keep ${keepRate.toFixed(2)})`);
      // A customer whose payment vanished for good sometimes pays it again.
      for (const s of [...sent]) {
        if (!repaid.has(s.txid) && (await c.locate(s.txid)) === null && !repaid.has(s.txid)) {
          repaid.add(s.txid);
          stats.dropped++;
          const plan = planOf.get(s.orderId) as Plan;
          if (chance(0.6)) {
            queue.push({ symbol: s.symbol, amountBase: s.amountBase, plan });
            log.push(`  ${s.txid} vanished: ${s.orderId} pays ${s.amountBase} ${s.symbol} again`);
          }
        }
      }
    };

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
    await verify();
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

    async function verify(): Promise<void> {
      const problems: string[] = [];
      const rows = transfersOfChain(db, c.chain);
      const live = rows.filter((r) => r.status !== 'orphaned');
      const ledger = new Map(sent.map((s) => [s.txid, s]));
      for (const r of live) {
        if (!ledger.has(r.txid)) problems.push(`a transfer no one sent is recorded: ${r.txid}`);
      }
      const credited = new Map<string, bigint>();
      for (const s of sent) {
        const where = await c.locate(s.txid);
        const mine = live.filter((r) => r.txid === s.txid);
        if (!where) {
          if (mine.length > 0)
            problems.push(`${s.txid} is not on the chain but recorded as ${mine[0]?.status}`);
          continue;
        }
        if (!where.success) {
          problems.push(`${s.txid} failed on chain: the fuzz's customer ran out of funds or gas`);
          continue;
        }
        const order = findOrder(s.orderId);
        const rightToken = s.symbol === order.symbol;
        if (mine.length !== 1) {
          problems.push(
            `${s.txid} (${s.symbol} to ${s.orderId}, a ${order.symbol} order) on chain at ${where.blockNum} is recorded ${mine.length} times`,
          );
          continue;
        }
        const row = mine[0] as (typeof mine)[number];
        if (row.status !== 'final' || row.blockNum !== where.blockNum || row.blockHash !== where.blockHash) {
          problems.push(
            `${s.txid} (${s.orderId}) is at ${where.blockNum} on chain, recorded ${row.status} at ${row.blockNum}${row.blockHash === where.blockHash ? '' : ' with another hash'}`,
          );
        }
        if (row.amountBase !== s.amountBase || row.to !== s.to)
          problems.push(`${s.txid} recorded with other facts`);
        if (rightToken) {
          if (row.orderRef !== order.id)
            problems.push(`${s.txid} is not credited to ${s.orderId} (${row.unattributedReason})`);
          credited.set(order.id, (credited.get(order.id) ?? 0n) + s.amountBase);
        } else if (row.orderRef !== null || row.unattributedReason !== 'wrong-token') {
          problems.push(
            `${s.txid} in the wrong token is credited or mislabelled (${row.unattributedReason})`,
          );
        }
      }
      for (const plan of plans) {
        const order = findOrder(plan.orderId);
        const sum = credited.get(order.id) ?? 0n;
        const counted = live
          .filter((r) => r.orderRef === order.id && r.status === 'final')
          .reduce((a, r) => a + r.amountBase, 0n);
        if (counted !== sum) problems.push(`${plan.orderId}: ${counted} credited, ${sum} on chain`);
        const lost = rows.some((r) => r.orderRef === order.id && r.status === 'orphaned');
        const expected =
          sum >= order.amountBase ? 'SUCCESS' : sum > 0n ? 'EXPIRED' : lost ? 'FAILED' : 'EXPIRED';
        if (order.status !== expected) {
          problems.push(
            `${plan.orderId}: ${order.status}, expected ${expected} (${sum} of ${order.amountBase})`,
          );
        }
        if (order.receivedBase !== sum) {
          problems.push(`${plan.orderId}: receivedBase ${order.receivedBase}, ${sum} on chain`);
        }
        if (order.status === 'SUCCESS' && order.actualAmountBase !== sum) {
          problems.push(`${plan.orderId}: actualAmount ${order.actualAmountBase}, ${sum} on chain`);
        }
        if (order.status === 'EXPIRED') {
          const why =
            sum === 0n
              ? 'No payment was received before the order expired.'
              : `Only ${formatAmount(sum, plan.decimals)} of ${formatAmount(order.amountBase, plan.decimals)} ${plan.symbol} was received before the order expired.`;
          if (order.reason !== why) problems.push(`${plan.orderId}: reason ${order.reason}, expected ${why}`);
        }
        problems.push(...webhookProblems(order, sum));
      }
      if (problems.length > 0) {
        // each order a problem names, with what the chain holds and what Kassa recorded for it
        for (const plan of plans.filter((p) =>
          problems.some(
            (x) =>
              x.includes(`${p.orderId} `) ||
              x.includes(`${p.orderId}:`) ||
              x.includes(`${p.orderId})`) ||
              x.includes(`${p.orderId},`),
          ),
        )) {
          const order = findOrder(plan.orderId);
          problems.push(`${plan.orderId} (${order.status}, ${order.amountBase} ${plan.symbol}):`);
          for (const s of sent.filter((x) => x.orderId === plan.orderId)) {
            const where = await c.locate(s.txid);
            problems.push(
              `    sent ${s.txid} ${s.amountBase} ${s.symbol}: ${where ? `on chain at ${where.blockNum}` : 'not on chain'}`,
            );
          }
          for (const r of rows.filter((x) => x.to === plan.address)) {
            problems.push(
              `    row ${r.txid}#${r.eventKey} ${r.amountBase} ${r.status} at ${r.blockNum} ${r.orderRef ? 'credited' : r.unattributedReason} (written ${r.createdAt})`,
            );
          }
        }
        throw new Error(
          `reorg fuzz seed ${options.seed} (${c.chain}${options.outageFromStart ? ', RPC down from the first start' : ''}):\n  ${problems.join('\n  ')}\nactions:\n  ${log.join('\n  ')}`,
        );
      }
    }

    function webhookProblems(order: Order, sum: bigint): string[] {
      const out: string[] = [];
      const events = db
        .select()
        .from(webhookEvents)
        .all()
        .filter((e) => e.orderRef === order.id)
        .sort((a, b) => a.orderVersion - b.orderVersion);
      const statusOf: Record<string, string> = {
        ORDER_REVERTED: 'INIT',
        ORDER_PENDING: 'PENDING',
        ORDER_PENDING_CONFIRMATION: 'PENDING_CONFIRMATION',
        ORDER_SUCCESS: 'SUCCESS',
        ORDER_EXPIRED: 'EXPIRED',
        ORDER_FAILED: 'FAILED',
      };
      let previous = 'INIT';
      for (const e of events) {
        const data = JSON.parse(e.data) as {
          status: string;
          reason: string | null;
          actualAmount: string | null;
        };
        if (statusOf[e.notifyType] !== data.status)
          out.push(`${order.orderId}: ${e.notifyType} carries ${data.status}`);
        if (data.status === previous) out.push(`${order.orderId}: ${e.notifyType} without a change of state`);
        if (['SUCCESS', 'EXPIRED', 'FAILED'].includes(previous))
          out.push(`${order.orderId}: an event after ${previous}`);
        if (e.notifyType === 'ORDER_REVERTED') {
          if (previous !== 'PENDING' && previous !== 'PENDING_CONFIRMATION')
            out.push(`${order.orderId}: reverted from ${previous}`);
          if (data.reason !== REORG_REVERT_REASON)
            out.push(`${order.orderId}: reverted with reason ${data.reason}`);
        }
        if (e.notifyType === 'ORDER_SUCCESS' && data.actualAmount !== formatAmount(sum, order.decimals)) {
          out.push(`${order.orderId}: ORDER_SUCCESS says ${data.actualAmount}, ${sum} on chain`);
        }
        previous = data.status;
      }
      if (previous !== order.status)
        out.push(`${order.orderId}: last event says ${previous}, the order is ${order.status}`);
      return out;
    }
  } finally {
    await c.close();
  }
}

/**
 * Runs the fixed seeds of a CI test one after the other (every third with the RPC down from the
 * first start) and says which of the things the invariant is about the schedules never exercised:
 * an empty list when they found reorganisations at a checkpoint, made ones deeper than the
 * confirmation count and inside a pass, rolled an order back, killed the worker, and started down.
 */
export async function runReorgFuzzSeeds(
  make: () => Promise<FuzzChain>,
  seeds: number[],
): Promise<{ stats: FuzzStats[]; unexercised: string[] }> {
  const stats: FuzzStats[] = [];
  for (const seed of seeds) stats.push(await runReorgFuzz(make, { seed, outageFromStart: seed % 3 === 0 }));
  const total = (k: keyof FuzzStats) => stats.reduce((sum, s) => sum + Number(s[k]), 0);
  const wanted: (keyof FuzzStats)[] = ['kassaReorgs', 'deepReorgs', 'reorgsInPass', 'reverted', 'kills'];
  const unexercised = wanted.filter((k) => total(k) === 0) as string[];
  if (!stats.some((s) => s.outageFromStart)) unexercised.push('outageFromStart');
  return { stats, unexercised };
}
