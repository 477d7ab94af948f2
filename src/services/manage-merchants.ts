import type { MerchantRecord } from '../db/store.ts';

import { AppError } from '../domain/errors.ts';
import type { MerchantKind } from '../domain/order.ts';
import { newId, newSecret } from '../lib/ids.ts';
import { nonPublicKind } from '../lib/ip-ranges.ts';
import { type Deps, requireBox } from './deps.ts';

/** What `kassa merchant create` prints once: the only time the secrets are shown. */
export interface MerchantCreated {
  merchantId: string;
  kind: MerchantKind;
  token: string;
  webhookSecret: string;
}

/**
 * Checks a callback URL: http(s) only, and unless `allowPrivateTargets`, not an IP address or a
 * `localhost` name that is loopback, private, link-local or unspecified. (Other names are checked
 * on every delivery against the address actually connected to: their DNS may change.) Throws a
 * validation error otherwise.
 */
export function checkCallbackUrl(url: string, options: { allowPrivateTargets: boolean }): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError('validation', `The callback URL is not a valid URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new AppError('validation', 'The callback URL must use http or https.');
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const kind = host === 'localhost' || host.endsWith('.localhost') ? 'loopback' : nonPublicKind(host);
  if (kind && !options.allowPrivateTargets) {
    throw new AppError(
      'validation',
      `The callback URL points at a ${kind} address (${host}); Kassa delivers there only with webhooks.allowPrivateTargets set.`,
    );
  }
  return parsed.toString();
}

/** Creates a merchant with fresh random token and webhook secret, sealed with the master key. */
export async function createMerchant(
  deps: Pick<Deps, 'db' | 'box' | 'clock' | 'config'>,
  input: { kind: MerchantKind; name?: string | null; callbackUrl?: string | null },
): Promise<MerchantCreated> {
  const box = requireBox(deps as Deps);
  const id = newId('mch');
  const token = newSecret();
  const webhookSecret = newSecret();
  const now = deps.clock.now();
  await deps.db.insertMerchant({
    id,
    kind: input.kind,
    name: input.name ?? null,
    tokenSealed: box.seal(token, `${id}:token`),
    webhookSecretSealed: box.seal(webhookSecret, `${id}:webhook`),
    callbackUrl: input.callbackUrl ? checkCallbackUrl(input.callbackUrl, deps.config.webhooks) : null,
    status: 'active',
    createdAt: now,
    updatedAt: now,
  });
  return { merchantId: id, kind: input.kind, token, webhookSecret };
}

/** Merchants without secrets, for `kassa merchant list`. */
export async function describeMerchants(deps: Pick<Deps, 'db'>) {
  return (await deps.db.listMerchants()).map((m) => ({
    merchantId: m.id,
    kind: m.kind,
    name: m.name,
    callbackUrl: m.callbackUrl,
    status: m.status,
    createdAt: new Date(m.createdAt).toISOString(),
  }));
}

async function mustExist(deps: Pick<Deps, 'db'>, id: string): Promise<MerchantRecord> {
  const m = await deps.db.findMerchant(id);
  if (!m) throw new AppError('not_found', `No merchant ${id}.`);
  return m;
}

/** Replaces a merchant's request token (the old one stops working within a second); returns the new one. */
export async function rotateMerchantToken(
  deps: Pick<Deps, 'db' | 'box' | 'clock'>,
  id: string,
): Promise<{ merchantId: string; token: string }> {
  await mustExist(deps, id);
  const token = newSecret();
  await deps.db.updateMerchant(
    id,
    { tokenSealed: requireBox(deps as Deps).seal(token, `${id}:token`) },
    deps.clock.now(),
  );
  return { merchantId: id, token };
}

/** Sets or clears (null) a merchant's webhook callback URL. */
export async function setMerchantCallback(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  id: string,
  url: string | null,
): Promise<void> {
  await mustExist(deps, id);
  const callbackUrl = url ? checkCallbackUrl(url, deps.config.webhooks) : null;
  await deps.db.updateMerchant(id, { callbackUrl }, deps.clock.now());
}

/** Disables a merchant: its signatures stop verifying; its orders are kept. */
export async function disableMerchant(deps: Pick<Deps, 'db' | 'clock'>, id: string): Promise<void> {
  await mustExist(deps, id);
  await deps.db.updateMerchant(id, { status: 'disabled' }, deps.clock.now());
}
