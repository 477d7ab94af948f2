import { TronWeb } from 'tronweb';
import { expect } from 'vitest';
import type { TokenSpec } from '../../src/chains/port.ts';
import { createTronAdapter } from '../../src/chains/tron/adapter.ts';
import type { TronOptions } from '../../src/chains/tron/context.ts';
import { activeChain } from '../../src/config/active-chain.ts';
import { loadConfig } from '../../src/config/load.ts';
import type { FakeTronNode } from '../../src/devnet/tron/index.ts';
import { createKeyRing } from '../../src/keys/key-ring.ts';
import { silentLogger } from '../../src/lib/logger.ts';
import { TEST_MNEMONIC } from './harness.ts';
import { CUSTOMER, CUSTOMER_KEY, tronChainConfig, USDT } from './tron-chain.ts';

/** What the TRON action tests share: the tokens, the hot wallet's key, two addresses nobody else uses. */
export const usdt: TokenSpec = { symbol: 'USDT', contract: USDT, decimals: 6 };
export const trx: TokenSpec = { symbol: 'TRX', contract: null, decimals: 6 };
export const hot = createKeyRing(TEST_MNEMONIC).hotWallet('TRON');
export const watched = TronWeb.address.fromPrivateKey('77'.repeat(32)) as string;
export const other = TronWeb.address.fromPrivateKey('78'.repeat(32)) as string;

/** A TRON adapter on `node` (or on `rpc`), configured as Kassa would be, with options for the test. */
export async function tronAdapterOn(
  node: FakeTronNode,
  options: {
    rpc?: string[];
    confirmations?: number | 'finalized';
    chainId?: number;
    tokens?: unknown[];
  } & TronOptions = {},
) {
  const base = tronChainConfig(options.rpc ?? [node.url], { confirmations: options.confirmations }) as {
    chains: { TRON: { testnet: Record<string, unknown> } };
  };
  if (options.chainId !== undefined) base.chains.TRON.testnet.chainId = options.chainId;
  if (options.tokens) base.chains.TRON.testnet.tokens = options.tokens;
  const config = await loadConfig({ env: {}, overrides: base });
  return createTronAdapter(activeChain(config, 'TRON'), silentLogger(), options);
}

/** The customer pays with tronweb; returns the txid (in the pool, not mined). */
export async function customerPaysOn(
  node: FakeTronNode,
  to: string,
  amount: bigint,
  options: { token?: boolean; feeLimit?: number } = {},
) {
  const tronWeb = new TronWeb({ fullHost: node.url, privateKey: CUSTOMER_KEY });
  const unsigned =
    options.token === false
      ? await tronWeb.transactionBuilder.sendTrx(to, Number(amount), CUSTOMER)
      : (
          await tronWeb.transactionBuilder.triggerSmartContract(
            USDT,
            'transfer(address,uint256)',
            { feeLimit: options.feeLimit ?? 50_000_000 },
            [
              { type: 'address', value: to },
              { type: 'uint256', value: amount.toString() },
            ],
            CUSTOMER,
          )
        ).transaction;
  const sent = await tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(unsigned, CUSTOMER_KEY));
  expect(sent.result).toBe(true);
  return unsigned.txID as string;
}
