import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Address, encodeFunctionData, getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testTokenAbi } from './artifacts.ts';
import { type EvmDevnet, startEvmDevnet } from './devnet.ts';
import { isProcessRunning } from './is-process-running.ts';
import { readTokenInfo, tokenBalance, transferToken } from './tokens.ts';

const hotWallet: Address = getAddress('0x00000000000000000000000000000000000004a1');
const payer: Address = getAddress('0x00000000000000000000000000000000000000b0');

describe('startEvmDevnet with all four chains', () => {
  let devnet: EvmDevnet;
  beforeAll(async () => {
    devnet = await startEvmDevnet({
      fund: { accounts: [hotWallet, payer], native: 5n * 10n ** 18n, tokens: 1_000n },
    });
  });
  afterAll(() => devnet?.stop());

  it('runs one node per chain, each answering with the mainnet chain id', async () => {
    expect(devnet.chains.map((c) => c.chain)).toEqual(['ETH', 'BSC', 'POLYGON', 'AVAX_C_CHAIN']);
    expect(new Set(devnet.chains.map((c) => c.url)).size).toBe(4);
    const ids = await Promise.all(devnet.chains.map((c) => c.client.getChainId()));
    expect(ids).toEqual([1, 56, 137, 43114]);
    expect(devnet.chains.map((c) => c.chainId)).toEqual(ids);
  });

  it('deploys USDT and USDC with each chain’s real decimals, as the contracts themselves report', async () => {
    const expected = { ETH: 6, BSC: 18, POLYGON: 6, AVAX_C_CHAIN: 6 };
    for (const chain of devnet.chains) {
      for (const symbol of ['USDT', 'USDC'] as const) {
        const token = chain.tokens[symbol];
        const info = await readTokenInfo(chain.client, token.address);
        expect({ chain: chain.chain, symbol: info.symbol, decimals: info.decimals }).toEqual({
          chain: chain.chain,
          symbol,
          decimals: expected[chain.chain],
        });
        expect(token.decimals).toBe(expected[chain.chain]);
      }
    }
  });

  it('makes USDT on ETH, and only there, the kind whose transfer returns nothing', async () => {
    for (const chain of devnet.chains) {
      const { data } = await chain.client.call({
        account: payer,
        to: chain.tokens.USDT.address,
        data: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [hotWallet, 1n] }),
      });
      expect({ chain: chain.chain, returnsNothing: data === undefined }).toEqual({
        chain: chain.chain,
        returnsNothing: chain.chain === 'ETH',
      });
      expect(chain.tokens.USDT.kind).toBe(chain.chain === 'ETH' ? 'no-return' : 'standard');
    }
  });

  it('funds the given accounts with native coin and 1 000 whole tokens in base units', async () => {
    for (const chain of devnet.chains) {
      expect(chain.fundedAccounts).toEqual([hotWallet, payer]);
      for (const account of chain.fundedAccounts) {
        expect(await chain.client.getBalance({ address: account })).toBe(5n * 10n ** 18n);
        for (const token of Object.values(chain.tokens)) {
          expect(await tokenBalance(chain.client, token.address, account)).toBe(
            1_000n * 10n ** BigInt(token.decimals),
          );
        }
      }
    }
  });

  it('lets a funded account pay with an anvil-signed transfer', async () => {
    const bsc = devnet.get('BSC');
    await bsc.client.impersonateAccount({ address: payer });
    const receipt = await transferToken(bsc.client, {
      from: payer,
      token: bsc.tokens.USDT.address,
      to: hotWallet,
      amount: 10n ** 18n,
    });
    expect(receipt.status).toBe('success');
    expect(() => devnet.get('ETH')).not.toThrow();
  });
});

/** Pids of running processes whose command line mentions `needle`. */
function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(needle) && isProcessRunning(Number(entry))) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

describe('startEvmDevnet options', () => {
  it.runIf(process.platform === 'linux')('stops the chains it started when another chain fails', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'kassa-devnet-'));
    try {
      writeFileSync(join(stateDir, 'anvil-BSC.json'), 'not a state file');
      await expect(startEvmDevnet({ chains: ['ETH', 'BSC', 'POLYGON'], stateDir })).rejects.toThrow(
        /failed to parse json file/,
      );
      expect(processesMentioning(stateDir)).toEqual([]);
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('keeps tokens and balances across a restart with stateDir, without re-funding', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'kassa-devnet-'));
    try {
      const first = await startEvmDevnet({
        chains: ['POLYGON'],
        stateDir,
        fund: { accounts: [payer], tokens: 50n },
      });
      const polygon = first.get('POLYGON');
      await polygon.client.impersonateAccount({ address: payer });
      await transferToken(polygon.client, {
        from: payer,
        token: polygon.tokens.USDC.address,
        to: hotWallet,
        amount: 1n,
      });
      const head = await polygon.client.getBlockNumber({ cacheTime: 0 });
      const pid = polygon.anvil.process.pid!;
      await first.stop();
      expect(isProcessRunning(pid)).toBe(false);

      const second = await startEvmDevnet({
        chains: ['POLYGON'],
        stateDir,
        fund: { accounts: [payer], tokens: 40n },
      });
      try {
        const again = second.get('POLYGON');
        expect(again.tokens).toEqual(polygon.tokens);
        expect(await again.client.getBlockNumber({ cacheTime: 0 })).toBe(head);
        expect(await tokenBalance(again.client, again.tokens.USDC.address, hotWallet)).toBe(1n);
        // Top-up only: 50 − 1 units left is above the 40-token target, so nothing is minted.
        expect(await tokenBalance(again.client, again.tokens.USDC.address, payer)).toBe(50n * 10n ** 6n - 1n);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('turns mining off after set-up with noMining, and uses the chain ids given', async () => {
    const devnet = await startEvmDevnet({
      chains: ['AVAX_C_CHAIN'],
      chainIds: { AVAX_C_CHAIN: 43113 },
      noMining: true,
    });
    try {
      const avax = devnet.get('AVAX_C_CHAIN');
      expect(await avax.client.getChainId()).toBe(43113);
      expect(await avax.client.getAutomine()).toBe(false);
      expect(await readTokenInfo(avax.client, avax.tokens.USDC.address)).toMatchObject({ decimals: 6 });
      expect(() => devnet.get('ETH')).toThrow(/not part of this devnet/);
    } finally {
      await devnet.stop();
    }
  });
});
