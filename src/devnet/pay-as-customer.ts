import { payOnEvm } from './evm/customer.ts';
import type { SANDBOX_CUSTOMER, SandboxChain } from './sandbox.ts';
import { payOnSui, suiAddressOf } from './sui/customer.ts';
import { payOnTron, tronAddressOf } from './tron/customer.ts';

/** The sandbox customer's address on a chain family. */
export function customerAddress(family: SandboxChain['family'], customer: typeof SANDBOX_CUSTOMER): string {
  if (family === 'tron') return tronAddressOf(customer.tron);
  if (family === 'sui') return suiAddressOf(customer.sui);
  return '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
}

/** Pays `amount` base units of `contract` (null = native coin) to `to` on a sandbox chain from the customer's key. */
export async function payAsCustomer(
  chain: SandboxChain,
  customer: typeof SANDBOX_CUSTOMER,
  contract: string | null,
  to: string,
  amount: bigint,
): Promise<string> {
  switch (chain.family) {
    case 'evm':
      return payOnEvm({
        url: chain.rpc,
        chainId: chain.chainId as number,
        privateKey: customer.evm,
        token: contract as `0x${string}` | null,
        to: to as `0x${string}`,
        amount,
      });
    case 'tron':
      return payOnTron({ url: chain.rpc, privateKey: customer.tron, contract, to, amount });
    case 'sui':
      return payOnSui({ url: chain.rpc, secretKey: customer.sui, coinType: contract, to, amount });
  }
}
