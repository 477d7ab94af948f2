import type { Context } from 'hono';
import type { ProxyTrust } from '../http/middleware/client-ip.ts';
import type { RateLimiter } from '../lib/rate-limiter.ts';
import type { SharedCache } from '../lib/shared-cache.ts';
import type { DepositTotal } from '../services/deposit-totals.ts';
import type { Deps } from '../services/deps.ts';
import type { HotWalletHealth } from '../services/hot-wallet-health.ts';
import type { Period, TotalsRow } from '../services/order-totals.ts';
import { Refusal } from './refusal.ts';
import type { View } from './view.ts';

/** How long counted totals are reused. */
export const TOTALS_TTL_MS = 30_000;
/** How long hot-wallet balances read from the chains are reused. */
export const WALLETS_TTL_MS = 60_000;

/** Shared by every page of one dashboard. */
export interface AdminContext {
  deps: Deps;
  /** The path the dashboard is mounted at, e.g. `/admin`. */
  base: string;
  /** Sign-in attempts per client address. */
  limiter: RateLimiter;
  /** Which X-Forwarded-For hops are trusted proxies (the client address, TLS behind a proxy). */
  trust: ProxyTrust;
  /** Collections and payouts of the last 30 days, counted at most every TOTALS_TTL_MS. */
  totals: SharedCache<Record<Period, TotalsRow[]>>;
  /** Hot wallets read from the chains at most every WALLETS_TTL_MS; null when no chain is connected. */
  wallets: SharedCache<HotWalletHealth[]> | null;
  /** Money received on deposit addresses, added up at most every TOTALS_TTL_MS. */
  deposits: SharedCache<DepositTotal[]>;
}

/** Per-request values the dashboard's middleware sets. */
export type AdminEnv = {
  Variables: {
    view: View;
    /** The session cookie's token, when a full session was found for it. */
    token: string | undefined;
  };
};

export type AdminC = Context<AdminEnv>;

/** The view of a request signed in with a full session (the guard let it through, so it exists). */
export function viewOf(c: AdminC): View & { session: NonNullable<View['session']>; csrf: string } {
  const v = c.get('view');
  if (!v.session || !v.csrf) throw new Refusal(401, 'signedOut');
  return v as View & { session: NonNullable<View['session']>; csrf: string };
}

/** Refuses (403) anything but an admin: viewers look, admins act. */
export function requireAdmin(c: AdminC): void {
  if (viewOf(c).session.role !== 'admin') throw new Refusal(403, 'viewer');
}

/** A form field as text ('' when missing or a file). */
export async function field(c: AdminC, name: string): Promise<string> {
  const body = await c.req.parseBody();
  const value = body[name];
  return typeof value === 'string' ? value : '';
}

/** The query parameters as plain text values (first of each). */
export function queryOf(c: AdminC): Record<string, string> {
  return Object.fromEntries(Object.entries(c.req.query()).filter(([, v]) => typeof v === 'string'));
}
