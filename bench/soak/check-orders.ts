import { SuiGrpcClient } from '@mysten/sui/grpc';
import type { Payout, SoakBusiness } from './business.ts';
import { rpc, type SoakChains } from './chains.ts';
import type { Row, SoakDatabase } from './database.ts';
import { expectedStatus } from './drain.ts';

/** Reports one broken invariant. */
export type Problem = (text: string) => void;

/**
 * Collections: every one paid in time SUCCESS with the amount paid and exactly one ORDER_SUCCESS
 * event, the others EXPIRED; every payment recorded once, a late one recorded and not credited; no
 * transfer recorded twice. Returns how many collections each plan had.
 */
export function checkCollections(db: SoakDatabase, business: SoakBusiness, problem: Problem) {
  const { q, orderRow } = db;
  const byPlan: Record<string, number> = {};
  for (const c of business.collections) {
    byPlan[c.plan] = (byPlan[c.plan] ?? 0) + 1;
    if (c.error) {
      problem(`${c.orderId}: createCollection refused: ${c.error}`);
      continue;
    }
    const row = orderRow(c.m, c.orderId);
    const want = expectedStatus(c, row?.status);
    const paidInTime = c.paid.filter((p) => !p.afterExpiry).reduce((s, p) => s + p.amount, 0n);
    if (row?.status !== want) problem(`${c.orderId} (${c.plan}): ${row?.status}, expected ${want}`);
    if (want === 'SUCCESS' && !c.uncertain && BigInt(String(row?.actual_amount_base ?? '0')) !== paidInTime)
      problem(`${c.orderId}: actualAmount ${row?.actual_amount_base}, paid ${paidInTime}`);
    const successes = q<{ n: number }>(
      "SELECT count(*) AS n FROM webhook_events WHERE order_ref = ? AND notify_type = 'ORDER_SUCCESS'",
      row?.id,
    )[0]?.n;
    if (successes !== (want === 'SUCCESS' ? 1 : 0))
      problem(`${c.orderId}: ${successes} ORDER_SUCCESS events`);
    for (const p of c.paid) {
      const rows = q<Row>(
        "SELECT * FROM chain_transfers WHERE chain = ? AND txid = ? AND status != 'orphaned'",
        c.token.chain,
        p.txid,
      );
      if (rows.length !== 1) problem(`${c.orderId}: payment ${p.txid} recorded ${rows.length} times`);
      else if (p.afterExpiry && (rows[0]?.order_ref !== null || rows[0]?.unattributed_reason !== 'late'))
        problem(
          `${c.orderId}: late payment ${p.txid} attributed (${rows[0]?.order_ref}, ${rows[0]?.unattributed_reason})`,
        );
    }
  }
  for (const dup of q<Row>(
    "SELECT chain, txid, event_key, count(*) AS n FROM chain_transfers WHERE status != 'orphaned' GROUP BY chain, txid, event_key HAVING n > 1",
  ))
    problem(`transfer ${dup.chain} ${dup.txid}#${dup.event_key} recorded ${dup.n} times`);
  return { byPlan };
}

/**
 * Payouts: every one SUCCESS with exactly one on-chain transfer (its fresh receiver holds exactly
 * its amount). Returns how many payouts Kassa refused to take.
 */
export async function checkPayouts(
  db: SoakDatabase,
  business: SoakBusiness,
  chains: SoakChains,
  problem: Problem,
) {
  const suiClient = new SuiGrpcClient({ network: 'localnet', baseUrl: chains.sui.rpc });
  async function onChainBalance(p: Payout): Promise<bigint> {
    if (p.token.chain === 'ETH') {
      const data = `0x70a08231${p.to.slice(2).toLowerCase().padStart(64, '0')}`;
      const r = await rpc(chains.eth.rpc, 'eth_call', [{ to: p.token.contract, data }, 'latest']);
      return BigInt(String(r.result));
    }
    if (p.token.chain === 'TRON') {
      const res = await fetch(`${chains.tron.rpc}/_fake/balance`, {
        method: 'POST',
        body: JSON.stringify({ address: p.to, contract: p.token.contract }),
      });
      const body = (await res.json()) as { token?: string | number };
      return BigInt(String(body.token ?? '0'));
    }
    const r = await suiClient.core.getBalance({ address: p.to, coinType: p.token.contract });
    return BigInt(r.balance.balance);
  }
  let payoutsRefused = 0;
  for (const p of business.payouts) {
    if (p.refused) {
      payoutsRefused++;
      problem(`${p.orderId}: createPayout refused: ${p.refused}`);
      continue;
    }
    const row = db.orderRow(p.m, p.orderId);
    if (row?.status !== 'SUCCESS') problem(`${p.orderId}: payout ${row?.status} (${row?.reason ?? ''})`);
    const held = await onChainBalance(p);
    if (held !== p.amountBase)
      problem(`${p.orderId}: the receiver holds ${held}, the payout was ${p.amountBase}`);
  }
  return { payoutsRefused };
}
