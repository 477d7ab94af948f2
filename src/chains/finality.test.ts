import { describe, expect, it } from 'vitest';
import { type FinalityPolicy, headsUnder } from './finality.ts';

const policy = (confirmations: number | 'finalized', confirmationFloor = 0): FinalityPolicy => ({
  confirmations,
  confirmationFloor,
});

describe('headsUnder', () => {
  it.each([
    // policy, head, the chain's final block, expected final
    [policy('finalized'), 100, 68, 68],
    [policy('finalized'), 100, 100, 100], // Sui: the latest checkpoint is final
    [policy(12), 100, null, 89], // head − N + 1
    [policy(1), 100, null, 100], // one confirmation: the head itself
    [policy(0), 100, null, 100], // 0 counts as 1: an unmined block is never final
    [policy('finalized', 20), 100, 95, 81], // the floor lowers a too-eager finalized tag
    [policy('finalized', 20), 100, 50, 50], // and never raises it
    [policy(3, 10), 100, null, 91],
    [policy(12), 5, null, -1], // a young chain: nothing final yet
    [policy('finalized'), 100, 120, 100], // a node ahead of itself: never above the head
  ] as const)('%o at head %i with the chain final at %o → final %i', (p, head, finalized, expected) => {
    expect(headsUnder(p, head, finalized)).toEqual({ head, final: expected });
  });

  it('calls nothing final under `finalized` when the chain named no final block', () => {
    expect(headsUnder(policy('finalized'), 100, null)).toEqual({ head: 100, final: -1 });
  });
});
