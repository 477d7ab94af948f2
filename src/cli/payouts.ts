import { bootstrap } from '../bootstrap.ts';
import type { Chain } from '../domain/chains.ts';
import { isChain } from '../domain/chains.ts';
import {
  approveOperatorPayout,
  failOperatorPayout,
  findOperatorPayout,
  listOperatorPayouts,
  type PayoutView,
  rejectOperatorPayout,
  retryOperatorPayout,
} from '../services/manage-payouts.ts';
import { pausePayouts, resumePayouts } from '../services/payout-pause.ts';
import { printJson, printTable, UsageError } from './output.ts';

type Flags = Record<string, string | boolean | undefined>;

const USAGE = `payouts list [--merchant M] [--status S] [--stuck] [--awaiting-approval] [--json]
  payouts approve ID [--merchant M] | reject ID --reason TEXT [--merchant M]
  payouts retry ID [--merchant M] | fail ID --reason TEXT [--merchant M]
  payouts pause [--chain C] | resume [--chain C]`;

const text = (flags: Flags, name: string) =>
  typeof flags[name] === 'string' ? (flags[name] as string) : undefined;

/**
 * `kassa payouts …`: the operator's side of payouts. `list` shows payouts newest first (a table, or
 * one JSON document with `--json`); `approve`/`reject` decide payouts above `approvalAbove`;
 * `retry`/`fail` decide payouts held because their spend slot was used by a transaction Kassa did
 * not record (retry only after checking the chain: it is signed again in a new slot); `pause` /
 * `resume` stop and restart signing (requests are still accepted). ID is the payout's orderId as the
 * merchant gave it; `--merchant` picks one when two merchants used the same. Logs go to stderr.
 */
export async function payoutsCommand(args: string[], flags: Flags): Promise<void> {
  const [sub, id] = args;
  const merchant = text(flags, 'merchant');
  const reason = text(flags, 'reason');
  const chain = text(flags, 'chain')?.toUpperCase();
  const needsId = ['approve', 'reject', 'retry', 'fail'];
  if (!sub || ![...needsId, 'list', 'pause', 'resume'].includes(sub)) throw new UsageError(USAGE);
  if (needsId.includes(sub) && !id) throw new UsageError(`payouts ${sub} ID`);
  if ((sub === 'reject' || sub === 'fail') && !reason?.trim())
    throw new UsageError(`payouts ${sub} ID --reason TEXT (a reason is required)`);
  if (chain !== undefined && !isChain(chain)) throw new UsageError(`Unknown chain ${chain}.`);
  const rt = await bootstrap({
    configFile: flags.config as string | undefined,
    logTo: 2,
    chains: sub === 'retry', // asks the chain once more before giving a transaction up
  });
  try {
    switch (sub) {
      case 'list': {
        const rows = await listOperatorPayouts(rt, {
          merchantId: merchant,
          status: text(flags, 'status')?.toUpperCase(),
          stuck: flags.stuck === true,
          awaitingApproval: flags['awaiting-approval'] === true,
        });
        if (flags.json) printJson(rows);
        else printTable(rows.map(row));
        return;
      }
      case 'approve':
        return done(
          flags,
          await approveOperatorPayout(rt, id as string, merchant),
          'approved; it is signed on the next payout pass',
        );
      case 'reject':
        return done(
          flags,
          await rejectOperatorPayout(rt, id as string, reason as string, merchant),
          'rejected',
        );
      case 'retry': {
        const order = await findOperatorPayout(rt, id as string, merchant);
        const adapter = rt.adapters.get(order.chain) ?? null;
        return done(
          flags,
          await retryOperatorPayout(rt, adapter, id as string, merchant),
          'will be signed again in a new slot on the next payout pass',
        );
      }
      case 'fail':
        return done(flags, await failOperatorPayout(rt, id as string, reason as string, merchant), 'failed');
      case 'pause':
      case 'resume': {
        const paused: Chain[] =
          sub === 'pause' ? await pausePayouts(rt, chain) : await resumePayouts(rt, chain);
        if (flags.json) printJson({ paused });
        else
          process.stdout.write(
            paused.length === 0
              ? 'payout signing runs on every chain\n'
              : `payout signing paused on ${paused.join(', ')}\n`,
          );
        return;
      }
    }
  } finally {
    await rt.close();
  }
}

function row(p: PayoutView) {
  return {
    orderId: p.orderId,
    merchant: p.merchantId,
    chain: p.chain,
    amount: `${p.amount} ${p.symbol}`,
    to: p.receiveAddress ?? '',
    status: p.status,
    hold: p.hold ?? '',
    txid: p.txid ?? '',
    reason: p.holdReason ?? p.reason ?? '',
    created: p.createdAt,
  };
}

function done(flags: Flags, view: PayoutView, what: string): void {
  if (flags.json) printJson(view);
  else process.stdout.write(`payout ${view.orderId} (${view.merchantId}) ${what}: ${view.status}\n`);
}
