import { type Address, getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customer, ethAdapterOn, ethDevnet, ethTokens } from '../../../../test/helpers/evm-node.ts';
import type { EvmDevnet } from '../../../devnet/evm/devnet.ts';
import { transferToken } from '../../../devnet/evm/tokens.ts';

let devnet: EvmDevnet;
beforeAll(async () => {
  devnet = await ethDevnet();
});
afterAll(() => devnet?.stop());

const watched = getAddress('0x00000000000000000000000000000000000000a1');
const other = getAddress('0x00000000000000000000000000000000000000b2');

describe('EVM scan', () => {
  it('finds token and native transfers to watched addresses only, with the same keys every time', async () => {
    const c = devnet.get('ETH');
    const { usdt, usdc, eth } = ethTokens(devnet);
    const a = await ethAdapterOn(devnet);
    const from = Number(await c.client.getBlockNumber()) + 1;
    const pay = async (token: 'USDT' | 'USDC', to: Address, amount: bigint) =>
      (await transferToken(c.client, { from: customer, token: c.tokens[token].address, to, amount }))
        .transactionHash;
    const usdcTx = await pay('USDC', watched, 1_500_000n);
    await pay('USDC', other, 2_000_000n);
    const usdtTx = await pay('USDT', watched, 7n);
    const nativeTx = await c.client.sendTransaction({
      account: customer,
      to: watched,
      value: 3n,
      chain: c.client.chain,
    });
    // the last payment's block ends the range (the devnet client caches eth_blockNumber)
    const to = Number((await c.client.waitForTransactionReceipt({ hash: nativeTx })).blockNumber);
    const addresses = new Set<string>([watched]);
    const found = await a.scan(from, to, addresses, [usdt, usdc, eth]);
    const key = (t: (typeof found)[number]) => [
      t.txid,
      t.eventKey,
      t.contract,
      t.to,
      t.amountBase,
      t.success,
    ];
    expect(found.map(key).sort()).toEqual(
      [
        [usdcTx, '0', c.tokens.USDC.address, watched, 1_500_000n, true],
        [usdtTx, '0', c.tokens.USDT.address, watched, 7n, true],
        [nativeTx, 'native', null, watched, 3n, true],
      ].sort(),
    );
    const usdcFound = found.find((t) => t.txid === usdcTx);
    const mined = await c.client.getTransactionReceipt({ hash: usdcTx });
    expect(usdcFound).toMatchObject({
      from: customer.address,
      blockNum: Number(mined.blockNumber),
      blockHash: mined.blockHash,
    });
    expect(await a.scan(from, to, addresses, [usdt, usdc, eth])).toEqual(found);
    // native transfers are read only when the native coin is asked for, token logs only for their contract
    expect((await a.scan(from, to, addresses, [usdc])).map((t) => t.txid)).toEqual([usdcTx]);
    expect((await a.scan(from, to, addresses, [eth])).map((t) => t.txid)).toEqual([nativeTx]);
    expect(await a.scan(from, to, new Set(), [usdt, usdc, eth])).toEqual([]);
    expect(await a.scan(to, from, addresses, [usdt, usdc, eth])).toEqual([]);
  });
});
