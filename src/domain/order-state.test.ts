import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import { ORDER_STATUSES } from './order.ts';
import { transition } from './order-state.ts';

describe('order transitions', () => {
  it('walks a collection INIT → PENDING → PENDING_CONFIRMATION → SUCCESS', () => {
    expect(transition('COLLECTION', 'INIT', 'partial_seen')).toBe('PENDING');
    expect(transition('COLLECTION', 'PENDING', 'covered_seen')).toBe('PENDING_CONFIRMATION');
    expect(transition('COLLECTION', 'PENDING_CONFIRMATION', 'settled')).toBe('SUCCESS');
  });

  it('rolls a collection back after a reorg and never expires one waiting for finality', () => {
    expect(transition('COLLECTION', 'PENDING_CONFIRMATION', 'rolled_back')).toBe('INIT');
    expect(() => transition('COLLECTION', 'PENDING_CONFIRMATION', 'expired')).toThrow(AppError);
  });

  it('walks a payout INIT → PENDING → PENDING_CONFIRMATION → SUCCESS and refuses to re-broadcast', () => {
    expect(transition('PAYOUT', 'INIT', 'broadcast')).toBe('PENDING');
    expect(transition('PAYOUT', 'PENDING', 'mined')).toBe('PENDING_CONFIRMATION');
    expect(transition('PAYOUT', 'PENDING_CONFIRMATION', 'settled')).toBe('SUCCESS');
    expect(() => transition('PAYOUT', 'PENDING', 'broadcast')).toThrow(AppError);
    expect(() => transition('PAYOUT', 'PENDING', 'expired')).toThrow(AppError);
  });

  it('never leaves a final state', () => {
    for (const final of ['SUCCESS', 'EXPIRED', 'FAILED'] as const) {
      for (const event of [
        'partial_seen',
        'covered_seen',
        'settled',
        'failed',
        'expired',
        'rolled_back',
      ] as const) {
        expect(() => transition('COLLECTION', final, event)).toThrow(AppError);
      }
    }
    expect(ORDER_STATUSES).toHaveLength(6);
  });
});
