import { TronWeb } from 'tronweb';
import type { Genesis } from './chain.ts';
import { type FakeTronNode, startFakeTronNode } from './server.ts';

/*
 * Shared fixtures for the fake node's own tests: fixed keys, a manual-mode node with a funded
 * genesis, and a raw JSON poster (tronweb hides the wire shapes the tests check).
 */

/** Node JSON in tests, checked field by field. */
// biome-ignore lint/suspicious/noExplicitAny: the wire shapes are what the tests assert
export type Json = any;

/** Private keys of the test accounts (hex, no 0x). */
export const KEYS = {
  alice: '1111111111111111111111111111111111111111111111111111111111111111',
  bob: '2222222222222222222222222222222222222222222222222222222222222222',
  carol: '3333333333333333333333333333333333333333333333333333333333333333',
} as const;

/** Base58 addresses of the test accounts. */
export const ADDRESSES = {
  alice: TronWeb.address.fromPrivateKey(KEYS.alice) as string,
  bob: TronWeb.address.fromPrivateKey(KEYS.bob) as string,
  carol: TronWeb.address.fromPrivateKey(KEYS.carol) as string,
} as const;

/** Mainnet USDT's address, used as the USDT-like test token (returns false from transfer). */
export const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** alice: 1 000 TRX and 1 000 USDT; bob: 10 TRX; carol does not exist. */
export const GENESIS: Genesis = {
  tokens: [{ symbol: 'USDT', name: 'Tether USD', decimals: 6, returnsFalse: true, address: USDT }],
  accounts: [
    { address: ADDRESSES.alice, trx: 1_000_000_000n, tokens: { USDT: 1_000_000_000n } },
    { address: ADDRESSES.bob, trx: 10_000_000n },
  ],
};

/** A manual-mode node (no timer) with GENESIS, unless told otherwise. */
export function startTestNode(genesis: Genesis = GENESIS): Promise<FakeTronNode> {
  return startFakeTronNode({ blockIntervalMs: 0, genesis });
}

/** tronweb pointed at the node, signing as `key`. */
export function tronwebFor(node: FakeTronNode, key: string = KEYS.alice): TronWeb {
  return new TronWeb({ fullHost: node.url, privateKey: key });
}

/** POSTs JSON to the node and returns the parsed JSON answer with its HTTP status. */
export async function post(
  node: FakeTronNode,
  path: string,
  body: unknown = {},
): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${node.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, json };
}

/** Hex of an address the node's JSON uses (41…). */
export function hexOf(address: string): string {
  return TronWeb.address.toHex(address).toLowerCase();
}

/** Decodes a hex `message`/`resMessage`. */
export function fromHexUtf8(hex: string): string {
  return Buffer.from(hex, 'hex').toString('utf8');
}

/** Builds, signs and broadcasts a TRC-20 transfer with tronweb; returns the broadcast answer. */
export async function sendToken(
  node: FakeTronNode,
  from: keyof typeof KEYS,
  to: string,
  amount: bigint,
  options: { feeLimit?: number; contract?: string } = {},
): Promise<{
  result?: boolean;
  code?: string;
  message?: string;
  txid?: string;
  transaction: { txID: string };
}> {
  const tronWeb = tronwebFor(node, KEYS[from]);
  const { transaction } = await tronWeb.transactionBuilder.triggerSmartContract(
    options.contract ?? USDT,
    'transfer(address,uint256)',
    { feeLimit: options.feeLimit ?? 50_000_000 },
    [
      { type: 'address', value: to },
      { type: 'uint256', value: amount.toString() },
    ],
    ADDRESSES[from],
  );
  const signed = await tronWeb.trx.sign(transaction, KEYS[from]);
  return (await tronWeb.trx.sendRawTransaction(signed)) as never;
}

/** Builds (locally, as tronweb v6 does), signs and broadcasts a TRX transfer. */
export async function sendTrx(
  node: FakeTronNode,
  from: keyof typeof KEYS,
  to: string,
  sun: number,
): Promise<{
  result?: boolean;
  code?: string;
  message?: string;
  txid?: string;
  transaction: { txID: string };
}> {
  const tronWeb = tronwebFor(node, KEYS[from]);
  const transaction = await tronWeb.transactionBuilder.sendTrx(to, sun, ADDRESSES[from]);
  const signed = await tronWeb.trx.sign(transaction, KEYS[from]);
  return (await tronWeb.trx.sendRawTransaction(signed)) as never;
}
