import type { Address } from 'viem';
import type { TokenSpec } from '../../port.ts';
import type { EvmContext } from '../context.ts';
import { ERC20_ABI } from '../erc20.ts';

/** An address's balance of a token (ERC-20 balanceOf), or of the native coin when the contract is null. */
export async function balance(ctx: EvmContext, args: { address: string; token: TokenSpec }): Promise<bigint> {
  const address = args.address as Address;
  if (args.token.contract === null) return ctx.client.getBalance({ address });
  return ctx.client.readContract({
    address: args.token.contract as Address,
    abi: ERC20_ABI,
    functionName: 'balanceOf',
    args: [address],
  });
}
