import { activeChain } from '../config/active-chain.ts';
import type { Network } from '../domain/chains.ts';
import { AppError } from '../domain/errors.ts';
import type { Order } from '../domain/order.ts';
import type { Deps } from './deps.ts';
import { getOrder } from './get-order.ts';
import type { Merchant } from './merchant-directory.ts';

/** Everything the hosted checkout page shows about one collection, read at one instant. */
export interface Checkout {
  order: Order;
  /** The merchant's display name, when the operator gave one. */
  merchantName: string | null;
  network: Network;
  /** EVM chain id of the configured network (for EIP-681 wallet links); undefined for TRON and SUI. */
  chainId: number | undefined;
  /** Explorer link of the paying transaction, or null when there is no transaction or no explorer. */
  explorerUrl: string | null;
  /** Blocks a payment needs on this chain, or `finalized` when the chain's finality rule decides. */
  confirmationsRequired: number | 'finalized';
  /** The server's clock (epoch ms), so the page can count down without trusting the customer's clock. */
  now: number;
}

/** Fills the chain's explorer template; only http(s) templates make a link, so config cannot inject a scheme. */
export function explorerLink(template: string, txid: string): string | null {
  if (!/^https?:\/\//i.test(template) || !template.includes('{txid}')) return null;
  return template.replace('{txid}', encodeURIComponent(txid));
}

/**
 * The checkout view of a merchant's own collection. Throws `order_not_found` for an orderId the
 * merchant does not have, and for payouts (the checkout page is for collections only), so a valid
 * signature never reveals anything but the collection it was made for.
 */
export async function getCheckout(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  merchant: Pick<Merchant, 'id' | 'name'>,
  orderId: string,
): Promise<Checkout> {
  const order = await getOrder(deps, merchant.id, orderId);
  if (order.type !== 'COLLECTION') throw new AppError('order_not_found');
  const chain = activeChain(deps.config, order.chain);
  const txid = order.transaction?.txid;
  return {
    order,
    merchantName: merchant.name,
    network: deps.config.network,
    chainId: chain.chainId,
    explorerUrl: txid ? explorerLink(chain.explorerTx, txid) : null,
    confirmationsRequired: chain.confirmations === 'finalized' ? 'finalized' : chain.confirmations,
    now: deps.clock.now(),
  };
}
