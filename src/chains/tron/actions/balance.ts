import { ChainError } from '../../errors.ts';
import type { TokenSpec } from '../../port.ts';
import { addressWord, toHex41 } from '../address.ts';
import type { TronContext } from '../context.ts';
import { resources } from './account.ts';
import { constantCall } from './contract-call.ts';

/** An address's TRX balance, or its TRC-20 balance (balanceOf), in base units. */
export async function balance(
  ctx: TronContext,
  args: { address: string; token: TokenSpec },
): Promise<bigint> {
  const { address, token } = args;
  if (token.contract === null) return (await resources(ctx, { address })).balance;
  const { output } = await constantCall(ctx, {
    owner: toHex41(address),
    contract: toHex41(token.contract),
    selector: 'balanceOf(address)',
    parameter: addressWord(address),
  });
  if (!/^[0-9a-fA-F]{1,64}$/.test(output))
    throw new ChainError('node_error', `balanceOf answered ${output || 'nothing'}`);
  return BigInt(`0x${output}`);
}
