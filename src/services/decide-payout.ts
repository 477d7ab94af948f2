import type { Chain } from '../domain/chains.ts';
import { AppError } from '../domain/errors.ts';
import type { Deps } from './deps.ts';
import { describeChainError } from './describe-chain-error.ts';
import {
  approveOperatorPayout,
  failOperatorPayout,
  type PayoutView,
  rejectOperatorPayout,
  retryOperatorPayout,
} from './manage-payouts.ts';

/** What an operator can decide about a held payout. */
export type PayoutDecision = 'approve' | 'reject' | 'retry' | 'fail';

export const PAYOUT_DECISIONS: readonly PayoutDecision[] = ['approve', 'reject', 'retry', 'fail'];

/**
 * An operator's decision on a payout named by its internal id (the dashboard's links), carried out
 * by the same services as `kassa payouts approve|reject|retry|fail`: approve or reject (with a
 * reason) one awaiting approval; retry (after checking the chain; the chain is asked once more
 * when this process has it) or fail (with a reason) one held as stuck. Throws `order_not_found`,
 * `validation` (no reason), `state_conflict` (not waiting for that decision, or the chain shows
 * its transaction) and `chain_unavailable` (the chain could not be asked; nothing changed).
 */
export async function decidePayout(
  deps: Pick<Deps, 'db' | 'clock' | 'logger' | 'config' | 'adapters'>,
  input: { id: string; decision: PayoutDecision; reason?: string },
): Promise<PayoutView> {
  const order = await deps.db.findOrderById(input.id);
  if (order?.type !== 'PAYOUT') throw new AppError('order_not_found', `No payout ${input.id}.`);
  const { orderId, merchantId } = order;
  switch (input.decision) {
    case 'approve':
      return approveOperatorPayout(deps, orderId, merchantId);
    case 'reject':
      return rejectOperatorPayout(deps, orderId, input.reason ?? '', merchantId);
    case 'fail':
      return failOperatorPayout(deps, orderId, input.reason ?? '', merchantId);
    case 'retry': {
      const adapter = deps.adapters.get(order.chain as Chain) ?? null;
      try {
        return await retryOperatorPayout(deps, adapter, orderId, merchantId);
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw new AppError(
          'chain_unavailable',
          `${describeChainError(deps.config, order.chain as Chain, error)}. Its transactions could not be checked; nothing changed.`,
          { cause: error },
        );
      }
    }
  }
}
