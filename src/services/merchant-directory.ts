import type { MerchantRecord } from '../db/store.ts';

import type { MerchantKind } from '../domain/order.ts';
import { checkoutLinkKey } from './checkout-link.ts';
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
  /** The key of its checkout links' `sign` (checkout-link.ts), derived from the token. */
  checkoutKey: Buffer;
}

const TTL_MS = 1000;

interface Snapshot {
  at: number;
  list: Merchant[];
  byId: Map<string, Merchant>;
}

/**
 * Active merchants with opened secrets, re-read from the database at most once a second, so a
 * `kassa merchant create`, `rotate-token` or `disable` from another process takes effect within a
 * second. A re-read opens only the secrets that changed since the last one (a merchant's sealed
 * values are compared), so it costs one query however many merchants there are. A signature that
 * matches nobody never triggers a re-read: failed requests cost HMACs only, never decryption.
 */
export class MerchantDirectory {
  private cache: Snapshot | null = null;
  /** The re-read under way, which concurrent callers share. */
  private loading: Promise<Snapshot> | null = null;
  /** Counts invalidate() calls, so a read that started before one is not cached. */
  private generation = 0;
  private readonly opened = new Map<
    string,
    { tokenSealed: string; webhookSealed: string; merchant: Merchant }
  >();

  constructor(private readonly deps: Pick<Deps, 'db' | 'box' | 'clock'>) {}

  /** Active merchants, oldest first. */
  async active(): Promise<Merchant[]> {
    return (await this.load()).list;
  }

  /** One active merchant by id, or null. */
  async byId(id: string): Promise<Merchant | null> {
    return (await this.load()).byId.get(id) ?? null;
  }

  /** Drops the cache (after this process changed a merchant). */
  invalidate(): void {
    this.cache = null;
    this.loading = null;
    this.generation++;
  }

  private load(): Promise<Snapshot> {
    const now = this.deps.clock.now();
    if (this.cache && now - this.cache.at < TTL_MS) return Promise.resolve(this.cache);
    if (!this.loading) {
      const loading = this.reload(now).finally(() => {
        if (this.loading === loading) this.loading = null;
      });
      this.loading = loading;
    }
    return this.loading;
  }

  private async reload(now: number): Promise<Snapshot> {
    const generation = this.generation;
    const list = (await this.deps.db.listActiveMerchants()).map((m) => this.open(m));
    const byId = new Map(list.map((m) => [m.id, m]));
    for (const id of this.opened.keys()) if (!byId.has(id)) this.opened.delete(id);
    const snapshot = { at: now, list, byId };
    if (generation === this.generation) this.cache = snapshot;
    return snapshot;
  }

  private open(m: MerchantRecord): Merchant {
    const known = this.opened.get(m.id);
    if (known && known.tokenSealed === m.tokenSealed && known.webhookSealed === m.webhookSecretSealed) {
      if (known.merchant.callbackUrl !== m.callbackUrl || known.merchant.name !== m.name)
        known.merchant = { ...known.merchant, callbackUrl: m.callbackUrl, name: m.name };
      return known.merchant;
    }
    const box = requireBox(this.deps as Deps);
    const token = box.open(m.tokenSealed, `${m.id}:token`);
    const merchant: Merchant = {
      id: m.id,
      kind: m.kind,
      name: m.name,
      callbackUrl: m.callbackUrl,
      token,
      webhookSecret: box.open(m.webhookSecretSealed, `${m.id}:webhook`),
      checkoutKey: checkoutLinkKey(token),
    };
    this.opened.set(m.id, { tokenSealed: m.tokenSealed, webhookSealed: m.webhookSecretSealed, merchant });
    return merchant;
  }
}
