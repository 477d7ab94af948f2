import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { kassa } from '../helpers/cli.ts';
import { devnetChainConfig, type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { body, TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';

let w: EvmWorld;
let m: MerchantCreated;
let env: Record<string, string>;

beforeAll(async () => {
  w = await evmWorld(['ETH', 'BSC']);
  m = await w.h.merchant('V3');
  const configFile = join(w.h.dir, 'kassa.json');
  writeFileSync(configFile, JSON.stringify(devnetChainConfig(w.devnet)));
  env = {
    KASSA_DB: join(w.h.dir, 'kassa.db'),
    KASSA_MNEMONIC: TEST_MNEMONIC,
    KASSA_MASTER_KEY: TEST_MASTER_KEY,
    CONFIG: configFile,
  };
});
afterAll(() => w?.close());

describe('operator commands on a devnet', () => {
  it('`kassa wallets --json` shows each chain’s hot wallet with its balances read from the chain', () => {
    const r = kassa(['wallets', '--json', '--config', env.CONFIG as string], env);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as {
      chain: string;
      address: string;
      balances: Record<string, string>;
    }[];
    expect(list).toEqual([
      {
        chain: 'ETH',
        address: w.hot('ETH'),
        balances: { USDT: '1000000.00', USDC: '1000000.00', ETH: '1000.00' },
      },
      {
        chain: 'BSC',
        address: w.hot('BSC'),
        balances: { USDT: '1000000.00', USDC: '1000000.00', BNB: '1000.00' },
      },
    ]);
  });

  it('`kassa deposits unattributed` lists a payment no order took', async () => {
    const r = await body<{ address: string }>(
      await w.h.post('/v1/order/createCollection', m, {
        amount: '5',
        symbol: 'USDC',
        chain: 'BSC',
        orderId: 'u-1',
      }),
    );
    const txid = await w.pay('BSC', 'USDT', r.data.address, 5n * 10n ** 18n);
    await w.mine('BSC', 3);
    await w.scan('BSC');
    const out = kassa(['deposits', 'unattributed', '--json', '--config', env.CONFIG as string], env);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual([
      expect.objectContaining({
        chain: 'BSC',
        symbol: 'USDT',
        amount: '5.00',
        txid,
        to: r.data.address,
        reason: 'wrong-token',
      }),
    ]);
  });
});
