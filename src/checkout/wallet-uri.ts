import { familyOf } from '../domain/chains.ts';
import type { Order } from '../domain/order.ts';

/** What the QR code holds, and whether it carries the amount (so the page can say so). */
export interface WalletUri {
  uri: string;
  /** True when a wallet reading the code fills in token, amount and network by itself. */
  carriesAmount: boolean;
}

/**
 * The QR payload of a collection. EVM: an EIP-681 link, `ethereum:<token>@<chainId>/transfer?
 * address=<deposit>&uint256=<base units>` for a token and `ethereum:<deposit>@<chainId>?value=<wei>`
 * for the native coin (`@<chainId>` left out when the config has none). TRON and SUI have no wallet
 * URI that wallets agree on, so their code holds the plain deposit address.
 */
export function walletUri(
  order: Pick<Order, 'chain' | 'address' | 'tokenContract' | 'amountBase'>,
  chainId: number | undefined,
): WalletUri {
  if (familyOf(order.chain) !== 'evm') return { uri: order.address, carriesAmount: false };
  const at = chainId === undefined ? '' : `@${chainId}`;
  const uri = order.tokenContract
    ? `ethereum:${order.tokenContract}${at}/transfer?address=${order.address}&uint256=${order.amountBase}`
    : `ethereum:${order.address}${at}?value=${order.amountBase}`;
  return { uri, carriesAmount: true };
}
