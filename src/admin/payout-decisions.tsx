import { Csrf } from './layout.tsx';
import { ActionButton } from './ui.tsx';
import type { View } from './view.ts';

/** The longest reason a rejection or failure may give (the merchant reads it in the webhook). */
export const REASON_MAX = 300;

/**
 * What an admin can decide about a payout waiting for them, as POST forms: one awaiting approval
 * is approved (after ticking that amount and address were checked) or rejected with a reason; one
 * held as stuck is retried in a new slot (after ticking that the chain was checked) or failed with
 * a reason. `back` is the page to return to. Viewers see nothing here.
 */
export function PayoutDecisions(props: {
  v: View;
  id: string;
  orderId: string;
  hold: 'approval' | 'stuck';
  back?: string;
}) {
  const { v } = props;
  if (v.session?.role !== 'admin') return null;
  const t = v.t.payouts;
  const approval = props.hold === 'approval';
  const action = (decision: string) => `${v.base}/payouts/${props.id}/${decision}`;
  const back = props.back ? { back: props.back } : undefined;
  return (
    <div class="decide" data-decide={props.hold}>
      <ActionButton
        v={v}
        action={action(approval ? 'approve' : 'retry')}
        label={approval ? t.approve : t.retry}
        confirm={approval ? t.approveConfirm : t.retryConfirm}
        {...(back ? { fields: back } : {})}
      />
      <form method="post" action={action(approval ? 'reject' : 'fail')} class="inline">
        <Csrf v={v} />
        {props.back ? <input type="hidden" name="back" value={props.back} /> : null}
        <input
          name="reason"
          required
          maxlength={REASON_MAX}
          aria-label={`${t.reason} (${props.orderId})`}
          placeholder={`${t.reason}: ${t.reasonHint}`}
        />
        <button type="submit" class="danger">
          {approval ? t.reject : t.fail}
        </button>
      </form>
    </div>
  );
}
