import type { MerchantStore } from '../../store/merchants.ts';
import type { PgDb } from '../client.ts';
import * as merchants from '../repositories/merchants.ts';
import * as nonces from '../repositories/nonces.ts';

/** MerchantStore on PostgreSQL (the contract: src/db/store/merchants.ts). */
export function pgMerchantStore(db: PgDb): MerchantStore {
  return {
    // repositories/merchants.ts
    insertMerchant: (...args) => merchants.insertMerchant(db, ...args),
    listMerchants: () => merchants.listMerchants(db),
    listActiveMerchants: () => merchants.listActiveMerchants(db),
    findMerchant: (...args) => merchants.findMerchant(db, ...args),
    updateMerchant: (...args) => merchants.updateMerchant(db, ...args),
    // repositories/nonces.ts
    consumeNonce: (...args) => nonces.consumeNonce(db, ...args),
    pruneNonces: (...args) => nonces.pruneNonces(db, ...args),
  };
}
