import type { RecordedSpend } from '../../src/chains/port.ts';
import type { PayoutAttempt } from '../../src/db/repositories/payouts.ts';

/** A stored attempt as the adapters' judgeSlot takes it. */
export function spendOf(a: Pick<PayoutAttempt, 'txHash' | 'rawTx' | 'nonce' | 'validUntil'>): RecordedSpend {
  return { txHash: a.txHash, raw: a.rawTx, nonce: a.nonce, validUntil: a.validUntil };
}

/** A freshly signed payout as judgeSlot takes it. */
export function spendOfSigned(s: {
  txHash: string;
  raw: string;
  nonce: number | null;
  validUntil: number | null;
}) {
  return { txHash: s.txHash, raw: s.raw, nonce: s.nonce, validUntil: s.validUntil };
}
