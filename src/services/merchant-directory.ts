import { listActiveMerchants } from '../db/repositories/merchants.ts';
import type { MerchantKind } from '../domain/order.ts';
import type { Deps } from './deps.ts';
import { requireBox } from './deps.ts';

/** An active merchant with its secrets opened, held in memory only. */
export interface Merchant {
  id: string;
  kind: MerchantKind;
  name: string | null;
  callbackUrl: string | null;
  token: string;
  webhookSecret: string;
}

const TTL_MS = 1000;

/**
 * Active merchants with opened secrets, re-read from the database at most once a second, so a
 * `kassa merchant rotate-token` or `disable` from another process takes effect within a second; a
 * signature that matches nobody triggers an early re-read (at most ten a second).
 */
export class MerchantDirectory {
  private cache: { at: number; list: Merchant[]; byId: Map<string, Merchant> } | null = null;

  constructor(private readonly deps: Pick<Deps, 'db' | 'box' | 'clock'>) {}

  /** Active merchants, oldest first. */
  active(): Merchant[] {
    return this.load().list;
  }

  /** One active merchant by id, or null. */
  byId(id: string): Merchant | null {
    return this.load().byId.get(id) ?? null;
  }

  /**
   * Re-reads merchants if the cached list is older than `minAgeMs`; true when it did. Used after a
   * signature matched nobody, so a merchant created a moment ago in another process is found.
   */
  refreshIfOlderThan(minAgeMs: number): boolean {
    if (this.cache && this.deps.clock.now() - this.cache.at < minAgeMs) return false;
    this.cache = null;
    this.load();
    return true;
  }

  /** Drops the cache (after this process changed a merchant). */
  invalidate(): void {
    this.cache = null;
  }

  private load() {
    const now = this.deps.clock.now();
    if (this.cache && now - this.cache.at < TTL_MS) return this.cache;
    const box = requireBox(this.deps as Deps);
    const list = listActiveMerchants(this.deps.db).map((m) => ({
      id: m.id,
      kind: m.kind,
      name: m.name,
      callbackUrl: m.callbackUrl,
      token: box.open(m.tokenSealed, `${m.id}:token`),
      webhookSecret: box.open(m.webhookSecretSealed, `${m.id}:webhook`),
    }));
    this.cache = { at: now, list, byId: new Map(list.map((m) => [m.id, m])) };
    return this.cache;
  }
}
