import { Writable } from 'node:stream';
import pino from 'pino';
import { expect } from 'vitest';
import { ChainHealth } from '../../src/chains/health.ts';
import type { ChainAdapter } from '../../src/chains/port.ts';
import { transfersOfChain } from '../../src/db/repositories/chain-scan.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import type { Chain } from '../../src/domain/chains.ts';
import type { Order } from '../../src/domain/order.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { chainJobs } from '../../workers/jobs/chain-jobs.ts';
import { startWorker } from '../../workers/main.ts';
import { body, type Harness } from './harness.ts';

/**
 * What the RPC fault suites of each chain family share: the log lines Kassa wrote, and what a
 * merchant sees of its orders (state, webhook events, credited balance), read the way the merchant
 * or the operator would.
 */

/** One pino line as the suites read it. */
export interface LogLine {
  level: number;
  msg: string;
  chain?: string;
  reason?: string;
  [key: string]: unknown;
}

/** Sends the runtime's logs (debug and up) to an array the test reads. */
export function captureLogs(h: Harness): LogLine[] {
  const lines: LogLine[] = [];
  h.rt.logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    }),
  );
  return lines;
}

/** A collection created through the API; resolves with its deposit address. */
export async function collect(
  h: Harness,
  m: MerchantCreated,
  input: { chain: string; symbol: string; amount: string; orderId: string },
): Promise<{ orderId: string; address: string }> {
  const r = await body<{ address: string }>(await h.post('/v1/order/createCollection', m, input));
  if (r.code !== 200) throw new Error(`createCollection ${input.orderId}: ${r.code} ${r.msg}`);
  return { orderId: input.orderId, address: r.data.address };
}

/** A payout accepted through the API. */
export async function payout(
  h: Harness,
  m: MerchantCreated,
  input: { chain: string; symbol: string; amount: string; orderId: string; receiveAddress: string },
): Promise<string> {
  const r = await body(await h.post('/v1/order/createPayout', m, input));
  if (r.code !== 200) throw new Error(`createPayout ${input.orderId}: ${r.code} ${r.msg}`);
  return input.orderId;
}

/** The order as stored (throws when there is none). */
export function orderOf(h: Harness, m: MerchantCreated, orderId: string): Order {
  const o = findOrderByMerchantOrderId(h.db, m.merchantId, orderId);
  if (!o) throw new Error(`no order ${orderId}`);
  return o;
}

/** The webhook events written for an order, oldest first (what its merchant is sent, in order). */
export function eventsOf(h: Harness, m: MerchantCreated, orderId: string): string[] {
  const ref = orderOf(h, m, orderId).id;
  return h.db
    .select()
    .from(webhookEvents)
    .all()
    .filter((e) => e.orderRef === ref)
    .map((e) => e.notifyType);
}

/** Stored transfer rows of one transaction on a chain (one per credited payment, never two). */
export function transfersOf(h: Harness, chain: string, txid: string) {
  return transfersOfChain(h.db, chain).filter((t) => t.txid === txid);
}

/** The merchant's available balance of a token, as `POST /v1/merchant/getBalance` reports it. */
export async function available(
  h: Harness,
  m: MerchantCreated,
  chain: string,
  symbol: string,
): Promise<string> {
  h.clock.advance(200); // clear of the getBalance rate limit
  const r = await body<{ balance: string }[]>(await h.post('/v1/merchant/getBalance', m, { chain, symbol }));
  if (r.code !== 200) throw new Error(`getBalance: ${r.code} ${r.msg}`);
  return r.data[0]?.balance ?? '0';
}

/**
 * The webhook events of an order that ended well exactly once: no event twice, none of a roll-back
 * or a failure, `ORDER_SUCCESS` last. (Whether `ORDER_PENDING_CONFIRMATION` came first depends on
 * how many blocks one pass saw, so it is not asserted.)
 */
export function expectOneSuccess(events: string[], label?: string): void {
  expect(new Set(events).size, label).toBe(events.length);
  expect(events.at(-1), label).toBe('ORDER_SUCCESS');
  expect(
    events.filter((e) => /REVERTED|FAILED|EXPIRED/.test(e)),
    label,
  ).toEqual([]);
}

/**
 * Runs the worker's chain jobs (scan and payouts of every chain in `adapters`), as `kassa worker`
 * does, for the time of `run`, which gets the chains' health as the jobs report it.
 */
export async function withChainJobs<T>(
  h: Harness,
  run: (health: ChainHealth) => Promise<T>,
  adapters: ReadonlyMap<Chain, ChainAdapter> = h.rt.adapters,
): Promise<T> {
  const health = new ChainHealth();
  const worker = await startWorker(
    { ...h.rt, adapters: adapters as Map<Chain, ChainAdapter>, health: health },
    [chainJobs],
  );
  try {
    return await run(health);
  } finally {
    await worker.stop();
  }
}
