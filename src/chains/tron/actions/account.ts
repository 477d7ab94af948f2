import { toHex41 } from '../address.ts';
import type { TronContext } from '../context.ts';
import { type ChainParams, type Resources, readChainParams, readResources } from '../fees.ts';

const PARAMS_TTL_MS = 10 * 60_000;

/** Energy and bandwidth prices (getchainparameters), read at most every 10 minutes. */
export async function chainParams(ctx: TronContext): Promise<ChainParams> {
  if (ctx.params && Date.now() - ctx.params.at < PARAMS_TTL_MS) return ctx.params.value;
  const value = readChainParams(await ctx.http.call('/wallet/getchainparameters'));
  ctx.params = { value, at: Date.now() };
  return value;
}

/** An account's TRX balance, staked and free resources (getaccount + getaccountresource). */
export async function resources(ctx: TronContext, args: { address: string }): Promise<Resources> {
  const hex = toHex41(args.address);
  const [account, resource] = await Promise.all([
    ctx.http.call('/wallet/getaccount', { address: hex }),
    ctx.http.call('/wallet/getaccountresource', { address: hex }),
  ]);
  return readResources(account, resource);
}
