import { normalizeSuiAddress } from '@mysten/sui/utils';
import type { TokenSpec } from '../../port.ts';
import type { SuiContext } from '../context.ts';
import { normalizeCoinType, SUI_COIN_TYPE } from '../deposits.ts';
import { MASKS } from '../grpc.ts';
import type { CoinRef } from '../payout-tx.ts';

const COIN_PAGE_SIZE = 1000;
const MAX_COIN_PAGES = 50;

/** The owner's coins of a type, every page read from one endpoint (page tokens are node-local). */
export function coins(ctx: SuiContext, args: { owner: string; coinType: string }): Promise<CoinRef[]> {
  return ctx.rpc.call(async (c, o) => {
    const out: CoinRef[] = [];
    let pageToken: Uint8Array | undefined;
    for (let page = 0; page < MAX_COIN_PAGES; page++) {
      const res = await c.stateService.listOwnedObjects(
        {
          owner: args.owner,
          objectType: `0x2::coin::Coin<${args.coinType}>`,
          pageSize: COIN_PAGE_SIZE,
          pageToken,
          readMask: { paths: [...MASKS.coin] },
        },
        o,
      ).response;
      for (const obj of res.objects) {
        if (!obj.objectId || obj.version === undefined || !obj.digest) continue;
        out.push({
          objectId: normalizeSuiAddress(obj.objectId),
          version: obj.version.toString(),
          digest: obj.digest,
          balance: obj.balance ?? 0n,
        });
      }
      if (!res.nextPageToken || res.nextPageToken.length === 0) break;
      pageToken = res.nextPageToken;
    }
    return out;
  });
}

/**
 * What payouts can spend: the sum of the address's coin objects of the token. SIP-58 address
 * balances are left out because payouts do not withdraw from them.
 */
export async function balance(ctx: SuiContext, args: { address: string; token: TokenSpec }): Promise<bigint> {
  const { token } = args;
  const coinType = token.contract === null ? SUI_COIN_TYPE : normalizeCoinType(token.contract);
  if (coinType === null) return 0n;
  const all = await coins(ctx, { owner: normalizeSuiAddress(args.address), coinType });
  return all.reduce((sum, c) => sum + c.balance, 0n);
}
