import type { Db } from '../../src/db/client.ts';
import { getCursor, transfersOfChain } from '../../src/db/repositories/chain-scan.ts';
import type { FuzzChain } from './reorg-fuzz-chain.ts';
import type { Plan, Sent } from './reorg-fuzz-invariant.ts';
import type { Payment } from './reorg-fuzz-orders.ts';

/** What the fuzz's reorganisations read and write: the run's chain, randomness, counters, log and payments. */
export interface ReorgScope {
  c: FuzzChain;
  db: Db;
  /** The head after the devnet's own set-up (deployments, funding), which is never reorganised away. */
  setUp: number;
  random: () => number;
  chance: (p: number) => boolean;
  stats: { reorgs: number; deepReorgs: number; dropped: number };
  log: string[];
  sent: readonly Sent[];
  /** Payments still to make: a vanished one the customer pays again joins it. */
  queue: Payment[];
  plans: readonly Plan[];
}

/**
 * The reorganisations of a fuzz run: how deep one may go now (never down to what Kassa has taken as
 * final), and one of a given depth, after which a customer whose payment vanished for good
 * sometimes pays it again.
 */
export function fuzzReorgs({ c, db, setUp, random, chance, stats, log, sent, queue, plans }: ReorgScope) {
  const planOf = new Map(plans.map((p) => [p.orderId, p]));
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
  return { allowedDepth, reorg };
}
