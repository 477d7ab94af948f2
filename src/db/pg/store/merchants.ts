import type { MerchantStore } from '../../store/merchants.ts';
import type { PgDb } from '../client.ts';
import { notPorted } from './not-ported.ts';

/** MerchantStore on PostgreSQL (the contract: src/db/store/merchants.ts). */
export function pgMerchantStore(_db: PgDb): MerchantStore {
  return {
    insertMerchant: notPorted('insertMerchant'),
    listMerchants: notPorted('listMerchants'),
    listActiveMerchants: notPorted('listActiveMerchants'),
    findMerchant: notPorted('findMerchant'),
    updateMerchant: notPorted('updateMerchant'),
    consumeNonce: notPorted('consumeNonce'),
    pruneNonces: notPorted('pruneNonces'),
  };
}
