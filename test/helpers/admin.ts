import { Writable } from 'node:stream';
import type { Hono } from 'hono';
import pino from 'pino';
import type { Db } from '../../src/db/client.ts';
import { recordScan } from '../../src/db/repositories/chain-scan-write.ts';
import { findOrderById } from '../../src/db/repositories/orders.ts';
import { holdPayout } from '../../src/db/repositories/payout-decisions.ts';
import { commitSignedPayout } from '../../src/db/repositories/payouts.ts';
import type { Order } from '../../src/domain/order.ts';
import { transition } from '../../src/domain/order-state.ts';
import { newId } from '../../src/lib/ids.ts';
import type { Logger } from '../../src/lib/logger.ts';
import { createAdminUser } from '../../src/services/admin-accounts.ts';
import type { Harness } from './harness.ts';

/** A cookie jar and request helper over an in-process app, as a browser without JavaScript would use it. */
export interface AdminClient {
  cookies: Map<string, string>;
  /** Requests `path` with the jar's cookies; stores the cookies the answer sets (and drops cleared ones). */
  request(path: string, init?: RequestInit & { form?: Record<string, string> }): Promise<Response>;
  /** GETs a page and returns its HTML and status. */
  page(path: string): Promise<{ status: number; html: string; res: Response }>;
  /** The value of the first hidden `csrf` field of a page. */
  csrfOf(html: string): string;
}

/** A fresh client with an empty cookie jar. */
export function adminClient(app: Pick<Hono, 'request'>): AdminClient {
  const cookies = new Map<string, string>();
  const client: AdminClient = {
    cookies,
    async request(path, init = {}) {
      const headers = new Headers(init.headers);
      if (cookies.size > 0) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
      let body = init.body;
      if (init.form) {
        body = new URLSearchParams(init.form);
        headers.set('content-type', 'application/x-www-form-urlencoded');
      }
      const res = await app.request(
        path,
        { ...init, method: init.method ?? (init.form ? 'POST' : 'GET'), headers, body },
        // as @hono/node-server binds it: the peer is a proxy on this machine, so a test's
        // X-Forwarded-For (with trustProxy) names the client
        { incoming: { socket: { remoteAddress: '127.0.0.1', remotePort: 40000, remoteFamily: 'IPv4' } } },
      );
      for (const line of res.headers.getSetCookie()) {
        const [pair = '', ...attributes] = line.split(';');
        const eq = pair.indexOf('=');
        const name = pair.slice(0, eq).trim();
        const value = pair.slice(eq + 1).trim();
        const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
        if (expired) cookies.delete(name);
        else cookies.set(name, value);
      }
      return res;
    },
    async page(path) {
      const res = await client.request(path);
      return { status: res.status, html: await res.text(), res };
    },
    csrfOf(html) {
      const token = /name="csrf" value="([^"]*)"/.exec(html)?.[1];
      if (!token) throw new Error('no csrf field on the page');
      return token;
    },
  };
  return client;
}

/** Signs `client` in with email and password through the real form; returns the answer to the POST. */
export async function signIn(client: AdminClient, email: string, password: string, base = '/admin') {
  const form = await client.page(`${base}/login`);
  return client.request(`${base}/login`, {
    form: { csrf: client.csrfOf(form.html), email, password, next: base },
  });
}

/**
 * Pays a collection the way the scanner records it: the transfer is stored (pending) with the
 * order moving to PENDING_CONFIRMATION, then made final with the order moving to SUCCESS, each in
 * one recordScan step with its webhook event. Returns the transfer's txid.
 */
export function payByScan(
  db: Db,
  order: Order,
  input: { txid: string; from?: string; now: number; blockNum?: number },
): void {
  const transfer = {
    id: newId('trf'),
    chain: order.chain,
    txid: input.txid,
    eventKey: '0',
    blockNum: input.blockNum ?? 100,
    blockHash: `0x${'cd'.repeat(32)}`,
    blockTimestamp: Math.floor(input.now / 1000),
    fromAddress: input.from ?? `0x${'12'.repeat(20)}`,
    toAddress: order.address,
    tokenContract: order.tokenContract,
    symbol: order.symbol,
    amountBase: order.amountBase,
    status: 'pending' as const,
    orderRef: order.id,
    unattributedReason: null,
  };
  const tx = {
    chain: order.chain,
    symbol: order.symbol,
    txid: input.txid,
    from: transfer.fromAddress,
    to: order.address,
    amountBase: order.amountBase,
    blockNum: transfer.blockNum,
    confirmedNum: 1,
    status: 'PENDING' as const,
    timestamp: transfer.blockTimestamp,
  };
  recordScan(db, {
    chain: order.chain,
    transfers: [transfer],
    statusChanges: [],
    transitions: [
      {
        order,
        patch: {
          status: transition(order.type, order.status, 'covered_seen'),
          receivedBase: order.amountBase,
          transaction: tx,
        },
      },
    ],
    cursor: null,
    now: input.now,
  });
  const covered = findOrderById(db, order.id) as Order;
  recordScan(db, {
    chain: order.chain,
    transfers: [],
    statusChanges: [{ id: transfer.id, status: 'final' }],
    transitions: [
      {
        order: covered,
        patch: {
          status: transition(covered.type, covered.status, 'settled'),
          actualAmountBase: order.amountBase,
          transaction: { ...tx, confirmedNum: 20, status: 'SUCCESS' },
        },
      },
    ],
    cursor: null,
    now: input.now + 1000,
  });
}

/** A logger that keeps every line it writes (parsed), for tests that check what was logged. */
export function keptLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    }),
  );
  return { logger, lines };
}

/**
 * Puts a queued payout where the sender leaves one whose spend slot was used by a transaction
 * Kassa did not record: a transaction signed and broadcast for it (PENDING), then held as stuck,
 * each through the repository function the sender itself uses.
 */
export async function holdAsStuck(
  db: Db,
  order: Order,
  input: { txHash: string; slot: string; reason: string; now: number },
): Promise<void> {
  const attempt = newId('pat');
  await commitSignedPayout(db, {
    attempt: {
      id: attempt,
      orderRef: order.id,
      chain: order.chain,
      fromAddress: order.address,
      nonce: null,
      txHash: input.txHash,
      rawTx: '00',
      status: 'broadcast',
      validUntil: null,
      slot: input.slot,
      replacesAttempt: null,
      maxFeePerGas: null,
      maxPriorityFeePerGas: null,
    },
    transition: { order, patch: { status: transition('PAYOUT', 'INIT', 'broadcast') } },
    now: input.now,
  });
  await holdPayout(db, { orderRef: order.id, attempts: [attempt], reason: input.reason, now: input.now });
}

/** The admin and the viewer the dashboard's in-process tests sign in as. */
export const ADMIN_USER = { email: 'ops@shop.example', password: 'correct horse battery' };
export const VIEWER_USER = { email: 'look@shop.example', password: 'staple paper clip' };

/** Creates ADMIN_USER and VIEWER_USER and signs each in with its own cookie jar. */
export async function adminAndViewer(h: Harness): Promise<{ admin: AdminClient; viewer: AdminClient }> {
  await createAdminUser(h.rt, { ...ADMIN_USER, role: 'admin' });
  await createAdminUser(h.rt, { ...VIEWER_USER, role: 'viewer' });
  const admin = adminClient(h.app);
  const viewer = adminClient(h.app);
  for (const [client, user] of [
    [admin, ADMIN_USER],
    [viewer, VIEWER_USER],
  ] as const) {
    const res = await signIn(client, user.email, user.password);
    if (res.status !== 303) throw new Error(`${user.email} could not sign in (${res.status})`);
  }
  return { admin, viewer };
}

/** The HTML inside a page's card `<section class="card" id="…">`; throws when the page has none. */
export function sectionOf(html: string, id: string): string {
  const found = new RegExp(`<section class="card" id="${id}">([\\s\\S]*?)</section>`).exec(html);
  if (!found) throw new Error(`no section #${id}`);
  return found[1] as string;
}
