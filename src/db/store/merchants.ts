import type { MerchantRecord } from '../repositories/merchants.ts';

/** Merchants and the nonces of their signed requests. Part of the Store port (../store.ts). */
export interface MerchantStore {
  // Merchants (repositories/merchants.ts)
  /** Stores a new merchant (secrets already sealed). */
  insertMerchant(record: MerchantRecord): Promise<void>;
  /** Every merchant, oldest first. */
  listMerchants(): Promise<MerchantRecord[]>;
  /** Active merchants, for signature lookup when no X-Merchant-Id is sent. */
  listActiveMerchants(): Promise<MerchantRecord[]>;
  /** One merchant by id. */
  findMerchant(id: string): Promise<MerchantRecord | null>;
  /** Changes a merchant's mutable fields; returns false when the merchant does not exist. */
  updateMerchant(
    id: string,
    patch: Partial<Pick<MerchantRecord, 'tokenSealed' | 'callbackUrl' | 'status' | 'webhookSecretSealed'>>,
    now: number,
  ): Promise<boolean>;
  // Request nonces (repositories/nonces.ts)
  /** Records a nonce (group-committed with the other API writes); false when the merchant already used it (a replay). */
  consumeNonce(merchantId: string, nonce: string, expiresAt: number): Promise<boolean>;
  /** Forgets nonces whose timestamp window has passed; they can no longer be replayed anyway. */
  pruneNonces(now: number): Promise<number>;
}
