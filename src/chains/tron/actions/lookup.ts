import type { PayoutLookup } from '../../port.ts';
import { wordToHex20 } from '../address.ts';
import type { TronContext } from '../context.ts';
import type { NodeJson } from '../http.ts';
import { fromHexText } from '../text.ts';
import { decodeTransferLog, infoFailed, isEmpty, num } from '../wire.ts';
import { block } from './block.ts';

const TRANSFER_SELECTOR = 'a9059cbb';

/** Where a transaction stands: unknown, pending (moved by a fork between the reads), or mined with its outcome. */
export async function lookup(ctx: TronContext, args: { txHash: string }): Promise<PayoutLookup> {
  const info = await ctx.http.call('/wallet/gettransactioninfobyid', { value: args.txHash });
  if (isEmpty(info)) return { state: 'unknown' };
  const [mined, tx] = await Promise.all([
    block(ctx, { height: num(info.blockNumber) }),
    ctx.http.call('/wallet/gettransactionbyid', { value: args.txHash }),
  ]);
  if (!mined || isEmpty(tx)) return { state: 'pending' }; // moved by a fork between the requests: look again
  const failure = failureOf(info, tx);
  return {
    state: 'mined',
    blockNum: mined.number,
    blockHash: mined.hash,
    timestamp: mined.timestamp,
    success: failure === null,
    ...(failure === null ? {} : { error: failure }),
  };
}

/**
 * Why a mined transaction did not do what it was built for, or null when it did: the receipt must
 * say SUCCESS and, for a TRC-20 `transfer`, the token must have logged that exact Transfer (the
 * return value is ignored: mainnet USDT returns false on success).
 */
export function failureOf(info: NodeJson, tx: NodeJson): string | null {
  if (infoFailed(info) || (tx?.ret?.[0]?.contractRet ?? 'SUCCESS') !== 'SUCCESS') {
    const reason = info?.receipt?.result ?? tx?.ret?.[0]?.contractRet ?? 'FAILED';
    const message = fromHexText(info?.resMessage);
    return message ? `${reason} (${message})` : String(reason);
  }
  const contract = tx?.raw_data?.contract?.[0];
  const value = contract?.parameter?.value ?? {};
  const data = String(value.data ?? '').toLowerCase();
  if (contract?.type !== 'TriggerSmartContract' || !data.startsWith(TRANSFER_SELECTOR)) return null;
  const token = String(value.contract_address ?? '')
    .slice(-40)
    .toLowerCase();
  const from = String(value.owner_address ?? '')
    .slice(-40)
    .toLowerCase();
  const to = wordToHex20(data.slice(8, 72));
  const amount = BigInt(`0x${data.slice(72, 136) || '0'}`);
  const logs: NodeJson[] = Array.isArray(info?.log) ? info.log : [];
  const logged = logs.some((log) => {
    const t = decodeTransferLog(log);
    return t && t.token === token && t.from === from && t.to === to && t.amount === amount;
  });
  return logged ? null : 'the token logged no matching Transfer';
}
